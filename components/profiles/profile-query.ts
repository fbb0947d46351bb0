/**
 * What a Tree of Life profile's page asks the API for about what the profile holds, said once for its client part
 * (profile-hub.tsx) and for the server, which reads the first answer with the page (app/(portal)/profiles/[profileId]).
 */
export const profileSummaryKey = (profileId: string) => ['profile-summary', profileId];
