/**
 * What the profiles' pages ask the API for, said once for their client parts and for the server, which reads the
 * first answers with the page: what a Tree of Life profile holds (profile-hub.tsx, app/(portal)/profiles/[profileId]),
 * and the list of profiles (profiles-table.tsx, app/(portal)/profiles/page.tsx).
 */
export const profileSummaryKey = (profileId: string) => ['profile-summary', profileId];

/** the list of profiles a page; usePagedList adds the offset, which lives in the URL as `offset` */
export const PROFILES_PAGE = 50;
export const PROFILES_PAGE_KEY = ['profiles', 'page'];
