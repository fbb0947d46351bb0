import { z } from 'zod';

/**
 * What the public repositories' clients and the domains above them share: which repositories a study goes to, and a
 * checklist as ENA publishes it in its CHECKLIST_SET XML (ENA.checklist.xsd), which lib/repositories/ena/checklists.ts
 * parses and lib/sample-checklists keeps.
 */

/** The public repositories a study is submitted to. */
export const REPOSITORIES = ['ena', 'zenodo'] as const;
export const RepositorySchema = z.enum(REPOSITORIES).meta({ description: 'a public repository' });
export type Repository = z.infer<typeof RepositorySchema>;

// ---------------------------------------------------------------------------------------------------------------
// ENA's checklists: the sample checklists a researcher registers samples against and the sequence checklists of
// tagged sequences

export const CHECKLIST_KINDS = ['sample', 'sequence'] as const;
export const ChecklistKindSchema = z.enum(CHECKLIST_KINDS);
export type ChecklistKind = z.infer<typeof ChecklistKindSchema>;

/** Where a checklist came from: ENA's reports service, or COPO's files in db/seed/data/sample-checklists. */
export const CHECKLIST_SOURCES = ['ena', 'copo'] as const;
export type ChecklistSource = (typeof CHECKLIST_SOURCES)[number];

/**
 * ENA's FIELD_TYPE: free text (with an optional pattern), a choice of values, a taxon's name (TAXON_FIELD), or a term
 * of an ontology (COPO's ONTOLOGY, checked as text).
 */
export const FIELD_TYPES = ['text', 'choice', 'taxon', 'ontology'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * What a field of COPO's checklists stands for that every sample sheet has as a column of its own: the sample's alias
 * (`sample`), its taxon id (TAXON_ID_FIELD) or its scientific name (SCIENTIFIC_NAME_FIELD).
 */
export const FIELD_ROLES = ['alias', 'taxon_id', 'scientific_name'] as const;
export type FieldRole = (typeof FIELD_ROLES)[number];

export const REQUIREMENTS = ['mandatory', 'recommended', 'optional'] as const;
export type Requirement = (typeof REQUIREMENTS)[number];

export const ChecklistFieldSchema = z
  .object({
    name: z
      .string()
      .meta({ description: 'the attribute name sent to ENA (its NAME, or LABEL when it has none)', example: 'collection date' }),
    label: z.string().meta({ example: 'collection date' }),
    description: z.string(),
    group: z.string().meta({ description: 'the FIELD_GROUP it belongs to', example: 'Collection event information' }),
    type: z.enum(FIELD_TYPES),
    /** text fields: ENA's pattern, applied to the whole value */
    regex: z.string().optional(),
    /** choice fields: the values, as ENA spells them */
    choices: z.array(z.string()).optional(),
    /** the units a value may be given in; the first is the one a template offers first */
    units: z.array(z.string()).optional(),
    requirement: z.enum(REQUIREMENTS),
    multiplicity: z.enum(['single', 'multiple']),
    synonyms: z.array(z.string()).optional(),
    role: z.enum(FIELD_ROLES).optional().meta({ description: 'the sheet’s own alias, taxon id or scientific name column stands for it' }),
  })
  .meta({ id: 'SampleChecklistField' });
export type ChecklistField = z.infer<typeof ChecklistFieldSchema>;

/** A checklist as parsed from its XML and kept. */
export const SampleChecklistSchema = z.object({
  id: z.string().meta({ description: 'its accession: ERC000011, or COPO_DWC', example: 'ERC000011' }),
  kind: ChecklistKindSchema,
  source: z.enum(CHECKLIST_SOURCES),
  /** the ENA checklist its samples are registered under (ENA-CHECKLIST): itself, or for COPO's the one it maps to */
  enaChecklistId: z.string(),
  name: z.string(),
  label: z.string(),
  description: z.string(),
  authority: z.string(),
  fields: z.array(ChecklistFieldSchema),
});
export type SampleChecklist = z.infer<typeof SampleChecklistSchema>;
