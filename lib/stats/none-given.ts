/**
 * A category's name for the things whose field is empty, in the API's answers and on the charts: a plain module, so
 * that the dashboard names it in the browser without loading the contract's zod.
 */
export const NONE_GIVEN = 'None given';
