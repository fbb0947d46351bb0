import { z } from 'zod';

/**
 * The projects and profile types, once: Tree of Life projects are manifest types, sample types, and what users
 * belong to or manage; profile types add the biodata (studies) type and the reference's deprecated `genomics`. The
 * database's CHECK constraints, the API's enumerations and the portal's choices are all made from these lists.
 */

export const TOL_PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const;
export const TolProjectSchema = z.enum(TOL_PROJECTS).meta({ description: 'a Tree of Life project' });
export type TolProject = z.infer<typeof TolProjectSchema>;

/** Every type a stored profile can have. `genomics` is readable when imported, never creatable. */
export const PROFILE_TYPES = [...TOL_PROJECTS, 'biodata', 'genomics'] as const;
export const ProfileTypeSchema = z.enum(PROFILE_TYPES).meta({ description: 'the type of a profile' });
export type ProfileType = z.infer<typeof ProfileTypeSchema>;

export const isTolProject = (v: string): v is TolProject => (TOL_PROJECTS as readonly string[]).includes(v);

/** `'asg', 'dtol', …` for a CHECK constraint: the same list as the enumerations above. */
export const sqlList = (values: readonly string[]): string => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
