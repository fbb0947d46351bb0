import { z } from 'zod';
import { ProfileIdSchema } from '../identifiers/contract';
import { ProfileTypeSchema } from '../projects/contract';

/** Profiles: the profile as answered, what creates or updates one, and the choices a new profile is made from. */

export const ProfileSchema = z
  .object({
    id: ProfileIdSchema,
    title: z.string(),
    description: z.string(),
    type: ProfileTypeSchema,
    associated_type: z.array(z.string()).meta({ description: 'associated profile types (sub-projects)', example: ['BGE', 'SANGER'] }),
    sequencing_centre: z.array(z.string()).meta({ description: 'sequencing centre short names', example: ['SANGER'] }),
    date_created: z.string().meta({ description: 'ISO 8601' }),
    date_modified: z.string().meta({ description: 'ISO 8601' }),
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
    sequencing_centres: z.array(z.object({ name: z.string(), label: z.string(), approval_required: z.boolean() })),
  })
  .meta({ id: 'ProfileOptions', description: 'the associated types and sequencing centres an ERGA profile chooses from' });
export type ProfileOptions = z.infer<typeof ProfileOptionsSchema>;
