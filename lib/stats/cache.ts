/**
 * A figure kept in memory for a short time, per database: callers within `ttlMs` of a count get that count, and
 * callers while it is being counted wait for the same count instead of starting their own. A failed count is not
 * kept. Each process (each instance of the service) keeps its own.
 */
export function briefly<K extends object, T>(ttlMs: number, load: (key: K) => Promise<T>): (key: K) => Promise<T> {
  const kept = new WeakMap<K, { value: Promise<T>; until: number }>();
  return (key) => {
    const now = Date.now();
    const hit = kept.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = load(key);
    // the time runs from the start of the count: a slow count is not kept longer
    kept.set(key, { value, until: now + ttlMs });
    value.catch(() => {
      if (kept.get(key)?.value === value) kept.delete(key);
    });
    return value;
  };
}
