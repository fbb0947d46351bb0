/**
 * Fault injection for the repository test server. Each rule applies to the next `count` requests that match its
 * filter, in the order the rules were added.
 */

export type ServiceName = 'ena' | 'browser' | 'taxonomy' | 'tolid' | 'zenodo' | 'localcontexts' | 'ols';

export interface FaultFilter {
  service?: ServiceName;
  method?: string;
  /** a substring of, or a pattern for, the request path */
  path?: string | RegExp;
}

export type FaultRule =
  | { kind: 'fail'; status: number; body: string }
  /** no answer; after `ms` (if given) the request is processed normally, its answer going nowhere when the client left */
  | { kind: 'hang'; ms?: number }
  /** ENA submit only: a RECEIPT with success="false" carrying these ERROR messages, nothing persisted */
  | { kind: 'errorReceipt'; messages: string[] };

interface Entry {
  rule: FaultRule;
  filter: FaultFilter;
  remaining: number;
}

export interface FaultContext {
  service: ServiceName;
  method: string;
  path: string;
  /** ENA submissions (sync or queued) are the only requests an errorReceipt rule can take */
  enaSubmit: boolean;
}

export class Faults {
  private entries: Entry[] = [];

  /** The next `count` matching requests answer `status` (500 by default). */
  fail(count: number, options: FaultFilter & { status?: number; body?: string } = {}): this {
    const { status = 500, body = '', ...filter } = options;
    return this.add({ kind: 'fail', status, body }, filter, count);
  }

  /** The next `count` matching requests get no answer (until `ms`, then processed; or until the server closes). */
  hang(count: number, options: FaultFilter & { ms?: number } = {}): this {
    const { ms, ...filter } = options;
    return this.add({ kind: 'hang', ...(ms === undefined ? {} : { ms }) }, filter, count);
  }

  /** The next `count` ENA submissions are refused with these ERROR messages (a checklist error by default). */
  errorReceipt(count: number, messages?: string[]): this {
    return this.add({ kind: 'errorReceipt', messages: messages ?? [] }, { service: 'ena' }, count);
  }

  clear(): void {
    this.entries = [];
  }

  /** Rules not yet used up. */
  get pending(): number {
    return this.entries.reduce((n, e) => n + e.remaining, 0);
  }

  /** Takes the rule for this request, if one matches. */
  take(ctx: FaultContext): FaultRule | undefined {
    const entry = this.entries.find((e) => e.remaining > 0 && matches(e, ctx));
    if (!entry) return undefined;
    entry.remaining -= 1;
    this.entries = this.entries.filter((e) => e.remaining > 0);
    return entry.rule;
  }

  private add(rule: FaultRule, filter: FaultFilter, count: number): this {
    if (count > 0) this.entries.push({ rule, filter, remaining: count });
    return this;
  }
}

function matches(entry: Entry, ctx: FaultContext): boolean {
  const f = entry.filter;
  if (entry.rule.kind === 'errorReceipt' && !ctx.enaSubmit) return false;
  if (f.service && f.service !== ctx.service) return false;
  if (f.method && f.method.toUpperCase() !== ctx.method) return false;
  if (f.path !== undefined) return typeof f.path === 'string' ? ctx.path.includes(f.path) : f.path.test(ctx.path);
  return true;
}
