/**
 * The browsers keep their filter in the page's URL (so a filtered, sorted page can be linked) and send the same
 * parameters to their API endpoint.
 */

/** `path` with `current`'s parameters changed: a blank or undefined value removes the parameter. */
export function withParams(path: string, current: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(current);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v.trim() === '') next.delete(k);
    else next.set(k, v);
  }
  const qs = next.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The parameters as a plain object of strings, the shape the shared zod schemas parse. */
export function paramsObject<K extends string>(search: URLSearchParams, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = search.get(k);
    if (v !== null) out[k] = v;
  }
  return out;
}

/** A form's fields as strings; checkbox groups (several values of one name) joined with commas. */
export function formValues<K extends string>(form: HTMLFormElement, keys: readonly K[]): Partial<Record<K, string>> {
  const d = new FormData(form);
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const all = d
      .getAll(k)
      .map(String)
      .filter((v) => v.trim() !== '');
    if (all.length) out[k] = all.join(',');
  }
  return out;
}

/**
 * A server page's parameters (Next.js's `searchParams`) as the URLSearchParams its client part reads
 * (useSearchParams), in their order: what a page reading a list with itself keys the answer by.
 */
export function searchOf(params: Record<string, string | string[] | undefined>): URLSearchParams {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of typeof v === 'string' ? [v] : (v ?? [])) search.append(k, one);
  return search;
}
