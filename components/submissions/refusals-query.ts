/**
 * What the list of refused registrations asks the API for (ena-refusals.tsx), said once for it and for the review
 * page's server, which reads it with the page (app/(portal)/manifests/review/page.tsx) under the same key.
 */
export const REFUSALS_PAGE = { limit: 50, offset: 0 } as const;
export const REFUSALS_KEY = ['registrations-refused'];
