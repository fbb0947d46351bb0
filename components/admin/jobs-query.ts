/**
 * What the Jobs page's list asks the API for (jobs-admin.tsx), said once for it and for the page's server, which reads
 * the first page with the page (app/(portal)/admin/jobs/page.tsx) under the same key.
 */
export const JOBS_PAGE = 50;
export const JOBS_KEY = ['admin-jobs'];
