/** Runs `fn` over `items` with at most `limit` in flight, so a large sheet does not flood a repository with requests. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * A figure kept in memory for a short time, per key (a database, a queue): callers within `ttlMs` of a count get that count, and
 * callers while it is being counted wait for the same count instead of starting their own. A failed count is not
 * kept. Each process (each instance of the service) keeps its own. `args` are what the count needs besides its key;
 * they are read only when it is counted.
 */
export function briefly<K extends object, A extends unknown[], T>(
  ttlMs: number,
  load: (key: K, ...args: A) => Promise<T>,
): (key: K, ...args: A) => Promise<T> {
  const kept = new WeakMap<K, { value: Promise<T>; until: number }>();
  return (key, ...args) => {
    const now = Date.now();
    const hit = kept.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = load(key, ...args);
    // the time runs from the start of the count: a slow count is not kept longer
    kept.set(key, { value, until: now + ttlMs });
    value.catch(() => {
      if (kept.get(key)?.value === value) kept.delete(key);
    });
    return value;
  };
}

/**
 * Turns for the event loop during a long computation on it (validating a large sheet): `due()` says when `sliceMs`
 * have passed since the last turn, and `give()` lets timers and I/O run (answers to other requests) before going on.
 * A promise resolved at once would not: its continuation runs before any I/O.
 */
export class EventLoopTurns {
  private last = performance.now();

  constructor(private readonly sliceMs = 10) {}

  due(): boolean {
    return performance.now() - this.last >= this.sliceMs;
  }

  async give(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }

  /** give() when due: call once per unit of work (a row) */
  async maybeGive(): Promise<void> {
    if (this.due()) await this.give();
  }
}
