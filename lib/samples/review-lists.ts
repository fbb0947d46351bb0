/**
 * The review queue's lists, orders and filters as plain values, beside the schemas made from them (review-contract.ts):
 * the review page draws them in the browser, where importing the contract would load zod with the page.
 */

export const REVIEW_STATES = ['awaiting', 'decided'] as const;
export const REVIEW_SORTS = ['newest', 'oldest'] as const;
/** How long decided samples stay in the queue's second list, so their registration can be followed there. */
export const DECIDED_DAYS = 14;
/** The parameters the portal keeps in the review page's URL and sends on as they are. */
export const REVIEW_FILTERS = ['sort', 'profile', 'uploader', 'manifest'] as const;
