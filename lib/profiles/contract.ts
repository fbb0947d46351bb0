import { z } from 'zod';
import { ProfileIdSchema } from '../identifiers/contract';
import { ProfileTypeSchema } from '../projects/contract';
import { ShareRoleSchema } from '../users/contract';

export const PROFILE_ROLES = ['admin', 'owner', 'contributor', 'viewer'] as const;
export const ProfileRoleSchema = z.enum(PROFILE_ROLES).meta({
  id: 'ProfileRole',
  description:
    'the caller’s role on the profile: owner and admin do everything; a contributor also uploads and confirms manifests, ' +
    'uploads studies and data files and submits studies; a viewer sees it',
});
export type ProfileRole = z.infer<typeof ProfileRoleSchema>;

/** Profiles: the profile as answered, what creates or updates one, and the choices a new profile is made from. */

export const ProfileSchema = z
  .object({
    id: ProfileIdSchema,
    title: z.string(),
    description: z.string(),
    type: ProfileTypeSchema,
    associated_type: z.array(z.string()).meta({ description: 'associated profile types (sub-projects)', example: ['BGE', 'SANGER'] }),
    sequencing_centre: z.array(z.string()).meta({ description: 'sequencing centre short names', example: ['SANGER'] }),
    ena_locus_tags: z
      .array(z.string())
      .meta({ description: 'ENA locus-tag prefixes, registered on the projects of the profile’s studies', example: ['BN123'] }),
    date_created: z.string().meta({ description: 'ISO 8601' }),
    date_modified: z.string().meta({ description: 'ISO 8601' }),
    owner: z.string().meta({ description: 'the username of the profile’s owner' }),
    role: ProfileRoleSchema,
  })
  .meta({ id: 'Profile', description: 'a profile: the manifests, samples, studies and data files of one piece of work' });
export type Profile = z.infer<typeof ProfileSchema>;

const names = z.union([z.string(), z.array(z.string())]);

/**
 * What a client sends to create or update a profile. Loosely typed on purpose: the checks and the reference's
 * messages (`Missing required field: Title title`, `Invalid value for 'type'…`) are the domain's.
 */
export const ProfileInputSchema = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    type: z.string().optional().meta({ description: 'asg, dtol, dtolenv, erga or biodata (any case); on update, the profile’s own' }),
    associated_type: names.optional().meta({
      description: 'ERGA only: sub-projects (GET /api/profiles/options); fixed for asg, dtol and dtolenv',
    }),
    sequencing_centre: names.optional().meta({ description: 'ERGA only: centre short names or labels' }),
    ena_locus_tags: names.optional().meta({
      description: 'ENA locus-tag prefixes (a comma list or an array; 3–12 letters and digits, starting with a letter)',
      example: 'BN123,ABCD',
    }),
  })
  .meta({ id: 'ProfileInput', description: 'a new profile, or the changes to one' });
export type ProfileInput = z.infer<typeof ProfileInputSchema>;

export const ProfileParamsSchema = z.object({ profile_id: ProfileIdSchema });

export const ProfileTypeOptionSchema = z
  .object({
    type: ProfileTypeSchema,
    label: z.string(),
    tol: z.boolean().meta({ description: 'a Tree of Life project: its profiles need the project’s membership' }),
    allowed: z.boolean().meta({ description: 'whether the caller may create profiles of this type' }),
    associated_type: z.array(z.string()).meta({ description: 'fixed associated types of the type' }),
    choose_associated_type: z.boolean(),
    choose_sequencing_centre: z.boolean(),
  })
  .meta({ id: 'ProfileType', description: 'a type offered for new profiles' });
export type ProfileTypeOption = z.infer<typeof ProfileTypeOptionSchema>;

export const ProfileOptionsSchema = z
  .object({
    associated_types: z.array(z.object({ name: z.string(), label: z.string(), approval_required: z.boolean(), selectable: z.boolean() })),
    sequencing_centres: z.array(z.object({ name: z.string(), label: z.string(), approval_required: z.boolean(), selectable: z.boolean() })),
  })
  .meta({
    id: 'ProfileOptions',
    description:
      'the associated types and sequencing centres an ERGA profile chooses from: the selectable ones; retired ones (selectable false) stay valid on profiles that have them',
  });
export type ProfileOptions = z.infer<typeof ProfileOptionsSchema>;

// a share's role is declared with the users, whose admin list names it (lib/users/contract.ts); the profile's API and
// the profile_shares table name it from here
export { SHARE_ROLES, type ShareRole, ShareRoleSchema } from '../users/contract';

export const ProfileShareSchema = z
  .object({
    id: z.number().int(),
    role: ShareRoleSchema,
    username: z.string().nullable().meta({ description: 'the person it is shared with; null for a group' }),
    group: z
      .object({ id: z.number().int(), name: z.string(), owner: z.string(), members: z.number().int() })
      .nullable()
      .meta({ description: 'the group it is shared with (whoever is its member at the time); null for a person' }),
    shared_by: z.string().nullable(),
    date_created: z.string().meta({ description: 'ISO 8601' }),
  })
  .meta({ id: 'ProfileShare', description: 'a profile shared with a person or a group' });
export type ProfileShare = z.infer<typeof ProfileShareSchema>;

export const NewShareSchema = z
  .union([
    z.object({ username: z.string().trim().min(1).max(150), role: ShareRoleSchema }).strict(),
    z.object({ group_id: z.number().int().positive(), role: ShareRoleSchema }).strict(),
  ])
  .meta({
    id: 'NewProfileShare',
    description: 'share with a person (`username`) or a group (`group_id`); sharing again with the same one changes the role',
  });
export type NewShare = z.infer<typeof NewShareSchema>;

export const ShareParamsSchema = z.object({
  profile_id: ProfileIdSchema,
  share_id: z.coerce.number().int().positive().meta({ description: 'a share’s id' }),
});

export const TransferSchema = z
  .object({
    username: z.string().trim().min(1).max(150).meta({ description: 'the new owner' }),
    former_owner_role: z
      .enum(['contributor', 'viewer', 'none'])
      .default('contributor')
      .meta({ description: 'the share the former owner keeps (default contributor; none: no access left)' }),
  })
  .strict()
  .meta({ id: 'ProfileTransfer', description: 'a profile given to another owner' });
export type Transfer = z.infer<typeof TransferSchema>;

export const TransferredSchema = z
  .object({
    profile_id: ProfileIdSchema,
    owner: z.string(),
    former_owner: z.string(),
    former_owner_role: TransferSchema.shape.former_owner_role.unwrap(),
  })
  .meta({ id: 'ProfileTransferred', description: 'who owns the profile now, and what the former owner kept' });
export type Transferred = z.infer<typeof TransferredSchema>;
