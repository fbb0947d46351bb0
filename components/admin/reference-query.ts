/**
 * The key of the associated types as the admin's pages ask for them (associated-types-admin.tsx, the Users page's
 * approver choices in user-projects.tsx), said once for them and for the Users page's server, which reads them with
 * the page (app/(portal)/admin/users/page.tsx).
 */
export const ASSOCIATED_TYPES_KEY = ['admin-associated-types'];
