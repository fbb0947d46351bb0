/** The four Tree of Life projects: manifest types, sample types, and what users belong to or manage. */
export const TOL_PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const;
export type TolProject = (typeof TOL_PROJECTS)[number];
