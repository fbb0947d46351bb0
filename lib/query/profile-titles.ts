import type { Db } from '@/db/client';

/**
 * How long this process trusts a profile's title it has read. A rename made through this process is seen at once
 * (forgetProfileTitle); one made through another process on the same database, within this long.
 */
export const PROFILE_TITLE_TTL_MS = 10_000;

/** Titles kept per database at most: far more profiles than a deployment holds; past it, the oldest half goes. */
const MAX_TITLES = 10_000;

/**
 * The titles of profiles as the query API and the sample browser print them beside each sample
 * (`svc_profile_title`), kept for PROFILE_TITLE_TTL_MS. A look-up of one sample spent about a tenth of its time in
 * PostgreSQL reading its profile's title (a second relation to open and scan for one short string), and a list of
 * 500 a second statement; titles change only when an owner renames a profile.
 */
class ProfileTitleCache {
  private readonly titles = new Map<string, { title: string | null; until: number }>();
  /** bumped by every rename: a read that began before one does not keep what it found */
  private renames = 0;

  /** The title, null for a profile without one, undefined when not known or known too long ago. */
  get(profileId: string): string | null | undefined {
    const kept = this.titles.get(profileId);
    if (kept === undefined) return undefined;
    if (kept.until > Date.now()) return kept.title;
    this.titles.delete(profileId);
    return undefined;
  }

  /** A mark to give keep() with what a read started now finds. */
  mark(): number {
    return this.renames;
  }

  /** Keeps the titles a read found, unless a profile was renamed while it ran (it may have read the old title). */
  keep(mark: number, found: Iterable<readonly [string, string | null]>): void {
    if (mark !== this.renames) return;
    if (this.titles.size >= MAX_TITLES) {
      // a Map iterates in insertion order: the first half is the oldest
      let drop = this.titles.size >> 1;
      for (const id of this.titles.keys()) {
        if (drop-- <= 0) break;
        this.titles.delete(id);
      }
    }
    const until = Date.now() + PROFILE_TITLE_TTL_MS;
    for (const [id, title] of found) this.titles.set(id, { title, until });
  }

  forget(profileId: string): void {
    this.renames++;
    this.titles.delete(profileId);
  }
}

// one cache per database handle: a process (a test worker, the benchmark) may open several databases whose
// profiles share ids
const caches = new WeakMap<Db, ProfileTitleCache>();

export function profileTitleCache(db: Db): ProfileTitleCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new ProfileTitleCache();
    caches.set(db, cache);
  }
  return cache;
}

/** After a rename has committed: this process reads the title afresh. */
export const forgetProfileTitle = (db: Db, profileId: string): void => profileTitleCache(db).forget(profileId);
