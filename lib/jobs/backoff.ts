/**
 * Waiting out a repository's outage (ENA, Zenodo): the work stays open, says why and when it is tried next, and
 * queues its next run with that delay. 30 s, then twice as long each time up to an hour, for two days; then it is
 * given up with the reason, and the user's retry sends it again.
 */
export const OUTAGE_FIRST_RETRY_SECONDS = 30;
export const OUTAGE_MAX_RETRY_SECONDS = 60 * 60;
export const OUTAGE_GIVE_UP_MS = 48 * 60 * 60 * 1000;

/** Seconds before the next try, after this many runs of the work. */
export const outageDelaySeconds = (runs: number) =>
  Math.min(OUTAGE_MAX_RETRY_SECONDS, OUTAGE_FIRST_RETRY_SECONDS * 2 ** Math.max(0, runs - 1));

/** The outage has lasted past the give-up time, counted from when the work was asked for. */
export const outageOver = (since: Date, now = Date.now()) => now - since.getTime() > OUTAGE_GIVE_UP_MS;

/** One date format for every "next try" a user reads: ISO 8601 to the second, UTC. */
export const isoSecond = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** "ENA could not be reached (…); next try at 2026-11-24T10:00:30Z." */
export const nextTryDetail = (service: string, message: string, next: Date) =>
  `${service} could not be reached (${message}); next try at ${isoSecond(next)}.`;
