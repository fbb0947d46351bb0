import { asc } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { associatedTypes, sequencingCentres } from '@/db/schema';

/**
 * How long a process answers from the lists it read. A change an administrator makes is seen at once by the process
 * that made it (it clears its own copy) and within this time by every other process on the same database.
 */
export const REFERENCE_CACHE_SECONDS = 30;

export type AssociatedType = typeof associatedTypes.$inferSelect;
export type SequencingCentre = typeof sequencingCentres.$inferSelect;

/** Both lists in their order, and what is derived from them on every read. */
export interface ReferenceData {
  associatedTypes: readonly AssociatedType[];
  sequencingCentres: readonly SequencingCentre[];
  /** the associated types a sample carrying them waits for an approval of */
  approvalTypes: ReadonlySet<string>;
}

export interface ReferenceCache {
  read(): Promise<ReferenceData>;
  /** forget the copy held: the next read asks the database */
  clear(): void;
}

async function load(db: Db): Promise<ReferenceData> {
  const [types, centres] = await Promise.all([
    db.select().from(associatedTypes).orderBy(asc(associatedTypes.position), asc(associatedTypes.name)),
    db.select().from(sequencingCentres).orderBy(asc(sequencingCentres.position), asc(sequencingCentres.name)),
  ]);
  return {
    associatedTypes: types,
    sequencingCentres: centres,
    approvalTypes: new Set(types.filter((t) => t.approvalRequired).map((t) => t.name)),
  };
}

/**
 * A copy of the lists, read at most once per `seconds` (concurrent reads share one load). A load that fails is not
 * kept, so the next read tries again.
 */
export function createReferenceCache(db: Db, opts: { seconds?: number; now?: () => number } = {}): ReferenceCache {
  const ttl = (opts.seconds ?? REFERENCE_CACHE_SECONDS) * 1000;
  const now = opts.now ?? Date.now;
  let held: { data: Promise<ReferenceData>; at: number } | null = null;
  return {
    read() {
      if (held && now() - held.at < ttl) return held.data;
      const data = load(db);
      const entry = { data, at: now() };
      held = entry;
      data.catch(() => {
        if (held === entry) held = null;
      });
      return data;
    },
    clear() {
      held = null;
    },
  };
}

// One copy per database handle (the service has one; each test harness its own), in one map per process: Next.js
// bundles each route separately, and a map per bundle would leave the pages reading a copy that a change made through
// the API did not clear (the same reason as lib/server/runtime.ts).
const KEY = Symbol.for('rmb.reference-caches');
type Holder = { [KEY]?: WeakMap<Db, ReferenceCache> };
const holder = globalThis as Holder;
holder[KEY] ??= new WeakMap();
const caches: WeakMap<Db, ReferenceCache> = holder[KEY];

/** The process's copy of the lists of this database. */
export function referenceCache(db: Db): ReferenceCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createReferenceCache(db);
    caches.set(db, cache);
  }
  return cache;
}
