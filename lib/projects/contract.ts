import { z } from 'zod';
import { PROFILE_TYPES, TOL_PROJECTS } from './lists';

/**
 * The projects and profile types, once: Tree of Life projects are manifest types, sample types, and what users
 * belong to or manage; profile types add the biodata (studies) type and the reference's deprecated `genomics`. The
 * database's CHECK constraints, the API's enumerations and the portal's choices are all made from these lists.
 */

export { isTolProject, PROFILE_TYPES, sqlList, TOL_PROJECTS } from './lists';

export const TolProjectSchema = z.enum(TOL_PROJECTS).meta({ description: 'a Tree of Life project' });
export type TolProject = z.infer<typeof TolProjectSchema>;

export const ProfileTypeSchema = z.enum(PROFILE_TYPES).meta({ description: 'the type of a profile' });
export type ProfileType = z.infer<typeof ProfileTypeSchema>;
