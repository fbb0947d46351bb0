/**
 * Where a sample stands, as a plain list (the schema and the words for each are in contract.ts): the portal's charts
 * order by it in the browser, where importing the contract would load zod with it.
 */
export const SAMPLE_STATUSES = [
  'pending',
  'private',
  'processing',
  'awaiting_ena',
  'awaiting_tolid',
  'sending',
  'accepted',
  'rejected',
  'refused',
  'failed',
] as const;
