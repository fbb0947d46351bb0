/**
 * Where a submission stands, as a plain list (its schema is in contract.ts): the portal's charts order by it in the
 * browser, where importing the contract would load zod with it.
 * rejected: the repository refused it; failed: it could not be completed (lost, or given up after retries)
 */
export const SUBMISSION_STATUSES = ['pending', 'processing', 'accepted', 'rejected', 'published', 'failed'] as const;
