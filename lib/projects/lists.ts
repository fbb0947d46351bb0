/**
 * The projects and profile types as plain lists, without the schemas made from them (contract.ts): what the portal's
 * pages show and check in the browser, where importing a contract would load zod with them.
 */

export const TOL_PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const;

/** Every type a stored profile can have. `genomics` is readable when imported, never creatable. */
export const PROFILE_TYPES = [...TOL_PROJECTS, 'biodata', 'genomics'] as const;

export const isTolProject = (v: string): v is (typeof TOL_PROJECTS)[number] => (TOL_PROJECTS as readonly string[]).includes(v);

/** The upper-case name the reference gives a project's manifest type (DTOL, ASG, ERGA, DTOLENV). */
export const manifestTypeOf = <P extends (typeof TOL_PROJECTS)[number]>(project: P): Uppercase<P> => project.toUpperCase() as Uppercase<P>;

/** `'asg', 'dtol', …` for a CHECK constraint: the same list as the enumerations of contract.ts. */
export const sqlList = (values: readonly string[]): string => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');
