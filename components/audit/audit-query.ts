/**
 * What the audit page's browser asks the API for, said once for its client part (audit-browser.tsx) and for the
 * server, which reads the first answer with the page (app/(portal)/audit/page.tsx).
 */
export const AUDIT_QUERY_KEY = 'audit-browse';
/** the page URL's parameters the browser reads and sends */
export const AUDIT_PARAMS = ['svc_id', 'tube', 'specimen', 'from', 'to', 'update_type', 'project', 'field', 'limit', 'offset'] as const;
