/**
 * What the Manifests page's client lists ask the API for, said once for them (reports-list.tsx, upload-panel.tsx)
 * and for the server, which reads their first answers with the page (app/(portal)/manifests/page.tsx).
 */

/** validation reports a page */
export const REPORTS_PAGE = 10;
// the list's page lives in the URL under its own name, so the list can sit on a page beside other tables
export const REPORTS_OFFSET_PARAM = 'reports';
/** the reports of the caller's profiles, or of one profile; usePagedList adds the offset */
export const reportsKey = (profileId?: string) => ['validations', profileId ?? ''];

/** the caller's profiles, to upload to and to name the reports' profiles: every one of them, as people have few */
export const PROFILES_KEY = ['profiles'];
export const PROFILES_LIMIT = 1000;
/** one profile, where the page names it (a profile's page, a report's corrected upload) */
export const profileKey = (profileId: string) => ['profiles', 'one', profileId];
