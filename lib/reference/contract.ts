import { z } from 'zod';

/**
 * The reference data administrators keep: associated project types (sub-projects) and sequencing centres. Their
 * names are what profiles and samples store, so a name never changes and is never deleted; a retired one is no longer
 * offered (`selectable` false) and stays valid where it is already used.
 */

const NAME = /^[A-Z][A-Z0-9_]{1,39}$/;
const nameSchema = (what: string) =>
  z
    .string()
    .trim()
    .regex(NAME, `${what} is 2 to 40 capital letters, digits and underscores, starting with a letter`)
    .meta({ description: `the ${what} as profiles and samples store it`, example: 'BGE' });

const LabelSchema = z
  .string()
  .trim()
  .min(1, 'label is required')
  .max(200, 'label must have at most 200 characters')
  .meta({ description: 'the name people read' });
const TimeUpdatedSchema = z.iso.datetime().meta({ description: 'when an administrator last changed it (its creation, if never)' });

export const AssociatedTypeNameSchema = nameSchema('associated type');
export const SequencingCentreNameSchema = nameSchema('sequencing centre');

/** The path of a PATCH: a name in any case; one that names nothing is 404. */
export const ReferenceNameParamsSchema = z.object({
  name: z.string().max(64).meta({ description: 'the name, in any case', example: 'BGE' }),
});

// ---------------------------------------------------------------------------------------------------------------
// An associated type's acceptance text: Markdown with `{{placeholder}}`s, filled for the accepted samples by the
// acceptance email (lib/mail/acceptance.ts). The placeholders are listed here, once, so that saving a text that names
// another is refused, by the API and by the admin's form alike.

export const ACCEPTANCE_PLACEHOLDERS = {
  profile_title: 'the title of the samples’ profile',
  associated_type: 'the associated type’s label, e.g. Biodiversity Genomics Europe (BGE)',
  sample_count: 'how many samples were accepted',
  tubes: 'the accepted samples’ TUBE_OR_WELL_ID, separated by commas',
  specimens: 'their SPECIMEN_ID, each once, separated by commas',
  centres: 'the labels of the profile’s sequencing centres',
  centre_contacts: 'the contacts of those centres, each with a mailto link and their role',
  manifest_id: 'the id of the manifest the samples came from',
  manifest_link: 'the address of the accepted samples in the portal',
} as const;
export type AcceptancePlaceholder = keyof typeof ACCEPTANCE_PLACEHOLDERS;
export const ACCEPTANCE_PLACEHOLDER_NAMES = Object.keys(ACCEPTANCE_PLACEHOLDERS) as AcceptancePlaceholder[];

/** `{{ name }}`, spaces inside the braces allowed; the name is trimmed where it is read. */
export const PLACEHOLDER_PATTERN = /\{\{([^{}]*)\}\}/g;

export const isAcceptancePlaceholder = (name: string): name is AcceptancePlaceholder => Object.hasOwn(ACCEPTANCE_PLACEHOLDERS, name);

/** The placeholders a text names that are not ACCEPTANCE_PLACEHOLDERS, each once, as written between the braces. */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER_PATTERN)) {
    const name = (m[1] ?? '').trim();
    if (!isAcceptancePlaceholder(name)) unknown.add(name);
  }
  return [...unknown];
}

/** The sentence that refuses a text with unknown placeholders, naming them and the known ones. */
export function unknownPlaceholderMessage(unknown: string[]): string {
  const named = unknown.map((n) => `{{${n}}}`).join(', ');
  const known = ACCEPTANCE_PLACEHOLDER_NAMES.map((n) => `{{${n}}}`).join(', ');
  return `Unknown placeholder${unknown.length === 1 ? '' : 's'} ${named} in the acceptance text; the known ones are ${known}.`;
}

export const ACCEPTANCE_TEXT_MAX = 10_000;

export const AcceptanceTextSchema = z
  .string()
  .max(ACCEPTANCE_TEXT_MAX, 'acceptance_text must have at most 10,000 characters')
  .superRefine((text, ctx) => {
    const unknown = unknownPlaceholders(text);
    if (unknown.length) ctx.addIssue({ code: 'custom', message: unknownPlaceholderMessage(unknown) });
  })
  .meta({
    description:
      'what the email telling an uploader their samples were accepted says for this type; may be empty. Markdown ' +
      '(links to http, https and mailto addresses; raw HTML is shown as text) with placeholders in double braces: ' +
      `${ACCEPTANCE_PLACEHOLDER_NAMES.map((n) => `{{${n}}}`).join(', ')}`,
    example: 'Thank you: the samples of {{profile_title}} are accepted for {{associated_type}}. Ship the tubes {{tubes}}.',
  });

// ---------------------------------------------------------------------------------------------------------------
// Associated project types

const associatedTypeFields = {
  label: LabelSchema,
  approval_required: z.boolean().meta({ description: 'a sample carrying the type waits for an approver of it' }),
  approval_required_on_update: z.boolean().meta({
    description: 'a changed re-upload of an approved sample needs this type’s approval again (false: the approval is kept)',
  }),
  selectable: z.boolean().meta({
    description: 'a user may pick it on an ERGA profile; false retires it (profiles and samples that carry it keep it)',
  }),
  acceptance_text: AcceptanceTextSchema,
};

export const AssociatedTypeSchema = z
  .object({ name: AssociatedTypeNameSchema, ...associatedTypeFields, time_updated: TimeUpdatedSchema })
  .meta({ id: 'AssociatedType', description: 'an associated project type (a sub-project)' });
export type AssociatedTypeJson = z.infer<typeof AssociatedTypeSchema>;

export const NewAssociatedTypeBodySchema = z
  .strictObject({
    name: AssociatedTypeNameSchema,
    label: LabelSchema,
    approval_required: associatedTypeFields.approval_required.default(false),
    approval_required_on_update: associatedTypeFields.approval_required_on_update.default(true),
    selectable: associatedTypeFields.selectable.default(true),
    acceptance_text: associatedTypeFields.acceptance_text.default(''),
  })
  .meta({ id: 'NewAssociatedType' });
export type NewAssociatedTypeBody = z.input<typeof NewAssociatedTypeBodySchema>;

const changesSomething = (body: object) => Object.values(body).some((v) => v !== undefined);
const NOTHING = { error: 'the body changes nothing: send at least one field' };

export const AssociatedTypePatchBodySchema = z
  .strictObject({
    label: associatedTypeFields.label.optional(),
    approval_required: associatedTypeFields.approval_required.optional(),
    approval_required_on_update: associatedTypeFields.approval_required_on_update.optional(),
    selectable: associatedTypeFields.selectable.optional(),
    acceptance_text: associatedTypeFields.acceptance_text.optional(),
  })
  .refine(changesSomething, NOTHING)
  .meta({ id: 'AssociatedTypePatch', description: 'the fields to change; the name never changes' });
export type AssociatedTypePatchBody = z.input<typeof AssociatedTypePatchBodySchema>;

// ---------------------------------------------------------------------------------------------------------------
// Sequencing centres

export const CentreContactSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'a contact’s name is required').max(200),
    email: z.email('a contact’s email is not a valid address'),
    role: z.string().trim().max(200).default('').meta({ description: 'what they do for the centre, e.g. sample manager' }),
  })
  .meta({ id: 'CentreContact' });
export type CentreContact = z.infer<typeof CentreContactSchema>;

const sequencingCentreFields = {
  label: LabelSchema.meta({ description: 'what the query API’s sequencing_centre parameter and a sample’s GAL name it by' }),
  approval_required: z.boolean().meta({
    description: 'picking it adds the associated type of the same name to the profile, whose approvers then approve its samples',
  }),
  contacts: z.array(CentreContactSchema).max(50, 'at most 50 contacts').meta({ description: 'the people to write to about it' }),
  selectable: z.boolean().meta({
    description: 'a user may pick it on an ERGA profile; false retires it (profiles that name it keep it)',
  }),
};

export const SequencingCentreSchema = z
  .object({ name: SequencingCentreNameSchema, ...sequencingCentreFields, time_updated: TimeUpdatedSchema })
  .meta({ id: 'SequencingCentre', description: 'a sequencing centre' });
export type SequencingCentreJson = z.infer<typeof SequencingCentreSchema>;

export const NewSequencingCentreBodySchema = z
  .strictObject({
    name: SequencingCentreNameSchema,
    label: sequencingCentreFields.label,
    approval_required: sequencingCentreFields.approval_required.default(false),
    contacts: sequencingCentreFields.contacts.default([]),
    selectable: sequencingCentreFields.selectable.default(true),
  })
  .meta({ id: 'NewSequencingCentre' });
export type NewSequencingCentreBody = z.input<typeof NewSequencingCentreBodySchema>;

export const SequencingCentrePatchBodySchema = z
  .strictObject({
    label: sequencingCentreFields.label.optional(),
    approval_required: sequencingCentreFields.approval_required.optional(),
    contacts: sequencingCentreFields.contacts.optional(),
    selectable: sequencingCentreFields.selectable.optional(),
  })
  .refine(changesSomething, NOTHING)
  .meta({ id: 'SequencingCentrePatch', description: 'the fields to change; the name never changes' });
export type SequencingCentrePatchBody = z.input<typeof SequencingCentrePatchBodySchema>;
