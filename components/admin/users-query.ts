/**
 * What the Users page's list asks the API for (users-admin.tsx), said once for it and for the page's server, which
 * reads the first page with the page (app/(portal)/admin/users/page.tsx) under the same key.
 */
export const USERS_PAGE = 50;
/** the list's key for a search as the page's URL gives it (`q`, trimmed; empty for every user) */
export const usersKey = (q: string) => ['admin-users', q];
/** the search a page's URL asks for, as the list reads it */
export const usersSearch = (search: URLSearchParams): string => (search.get('q') ?? '').trim();
