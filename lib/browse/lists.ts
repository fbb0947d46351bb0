/**
 * The browsers' choices and page sizes as plain values, beside the query schemas made from them (contract.ts): the
 * sample browser and the audit offer them in the browser, where importing the contract would load zod with the page.
 */
import { TOL_PROJECTS } from '../projects/lists';
import { SAMPLE_STATUSES } from '../samples/statuses';

export const BROWSE_PROJECTS = TOL_PROJECTS;
export const BROWSE_STATUSES = SAMPLE_STATUSES;
/** the portal offers the service's own names first */
export const BROWSE_STANDARDS = ['tol', 'dwc', 'ena', 'mixs'] as const;

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;
