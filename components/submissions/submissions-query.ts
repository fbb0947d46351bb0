/**
 * What the Submissions page's list asks the API for (submissions-table.tsx), said once for it and for the page's
 * server, which reads the first page with the page (app/(portal)/submissions/page.tsx); usePagedList adds the offset,
 * which lives in the URL as `offset`.
 */
export const SUBMISSIONS_PAGE = 50;
export const SUBMISSIONS_KEY = ['submissions'];
