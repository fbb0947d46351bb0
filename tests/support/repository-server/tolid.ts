import { type Incoming, json, type Outgoing } from './http';

/**
 * Sanger's ToLID service in memory: `POST /request/create` with the header `token` and a JSON list of
 * `{requested_taxonomy_id, specimen_id}`. A specimen and taxon get one ToLID for good (asking again returns it); tests can
 * make a specimen's request wait for a curator (pending) or be refused (rejected) before it is approved.
 */

type Outcome = { status: 'pending' } | { status: 'rejected'; reason: string } | { status: 'approved' };

export class TolidState {
  /** the ToLID last assigned to each specimen */
  readonly assigned = new Map<string, string>();
  private readonly byPair = new Map<string, string>();
  private readonly outcomes = new Map<string, Outcome>();
  private readonly counters = new Map<string, number>();
  /** every specimen asked about, in order */
  readonly asked: { specimenId: string; taxonId: string }[] = [];

  constructor(readonly tokens: Set<string>) {}

  /** what the next requests for this specimen answer (approved by default) */
  setOutcome(specimenId: string, outcome: Outcome): void {
    this.outcomes.set(specimenId, outcome);
  }

  /** pending or rejected specimens become approved */
  approveAll(): void {
    this.outcomes.clear();
  }

  private tolidFor(specimenId: string, taxonId: string): string {
    const pair = `${specimenId}/${taxonId}`;
    const known = this.byPair.get(pair);
    if (known) return known;
    // a real ToLID is a prefix for the species plus a running number; this one is recognisable in tests
    const prefix = `tx${taxonId}`;
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    const tolid = `${prefix}n${n}`;
    this.byPair.set(pair, tolid);
    this.assigned.set(specimenId, tolid);
    return tolid;
  }

  answer(items: { requested_taxonomy_id: number; specimen_id: string }[]) {
    return items.map((i) => {
      const specimenId = String(i.specimen_id);
      const taxonId = String(i.requested_taxonomy_id);
      this.asked.push({ specimenId, taxonId });
      const outcome = this.outcomes.get(specimenId) ?? { status: 'approved' };
      const attributes = { specimen_id: specimenId, species_id: Number(taxonId) };
      if (outcome.status === 'pending') return { id: null, attributes: { ...attributes, status: 'Pending' }, reason: null };
      if (outcome.status === 'rejected') return { id: null, attributes: { ...attributes, status: 'Rejected' }, reason: outcome.reason };
      return { id: this.tolidFor(specimenId, taxonId), attributes: { ...attributes, status: 'Approved' }, reason: null };
    });
  }
}

export function handleTolid(state: TolidState, incoming: Incoming, rest: string): Outgoing {
  const token = incoming.headers.token;
  if (typeof token !== 'string' || !state.tokens.has(token))
    return json(401, { errors: [{ title: 'Unauthorized', detail: 'Invalid token' }] });
  if (rest !== '/request/create') return json(404, { errors: [{ title: 'Not Found' }] });
  if (incoming.method !== 'POST') return json(405, { errors: [{ title: 'Method Not Allowed' }] });
  let items: unknown;
  try {
    items = JSON.parse(incoming.body.toString('utf8'));
  } catch {
    return json(400, { errors: [{ title: 'Bad Request', detail: 'The body is not JSON' }] });
  }
  const valid =
    Array.isArray(items) &&
    items.every(
      (i) =>
        i &&
        typeof i === 'object' &&
        Number.isInteger((i as Record<string, unknown>).requested_taxonomy_id) &&
        typeof (i as Record<string, unknown>).specimen_id === 'string',
    );
  if (!valid) return json(400, { errors: [{ title: 'Bad Request', detail: 'Expected [{requested_taxonomy_id: int, specimen_id: str}]' }] });
  return json(200, { data: state.answer(items as { requested_taxonomy_id: number; specimen_id: string }[]) });
}
