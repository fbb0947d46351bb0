/**
 * How many rows a pre-filled template holds, as plain numbers beside the contract that checks them (contract.ts): the
 * template's form shows them on a profile's page, where importing the contract would load zod with the page.
 */

/** A pre-filled template has at most as many rows as a manifest may hold, and this many unless asked. */
export const PREFILL_MAX_ROWS = 1000;
export const PREFILL_DEFAULT_ROWS = 10;
