import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { serviceChecks } from '@/db/schema';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import type { LocalContextsClient, ProjectPrivacyAnswer } from '@/lib/repositories/local-contexts';
import type { ServiceCheck } from './contract';
import type { RightsOutcome } from './review-contract';

/**
 * What the Local Contexts Hub says of the traditional-knowledge projects of private samples (lib/samples/rights.ts
 * asks it): the answers, one per project, what each means for a sample, and the hub's last outcome for /api/health.
 */

/** The service_checks row of the hub. */
export const HUB_SERVICE = 'local_contexts';
/** What the hub said of one project, or why it said nothing. */
export type HubAnswer = ProjectPrivacyAnswer | { failed: string };

/** Asks the hub about each project once; after an outage the rest are not asked (they would time out as well). */
async function askHub(hub: LocalContextsClient, projectIds: string[]): Promise<Map<string, HubAnswer>> {
  const answers = new Map<string, HubAnswer>();
  let outage: string | null = null;
  for (const id of projectIds) {
    if (outage) {
      answers.set(id, { failed: outage });
      continue;
    }
    try {
      answers.set(id, await hub.project(id));
    } catch (err) {
      if (!(err instanceof RepositoryError)) throw err;
      answers.set(id, { failed: err.message });
      if (isTransient(err)) outage = err.message;
    }
  }
  return answers;
}

/** One line for /api/health and the review queue: how the hub answered these look-ups. */
function hubOutcome(answers: Map<string, HubAnswer>): { ok: boolean; detail: string } {
  const all = [...answers.values()];
  const failed = all.filter((a): a is { failed: string } => 'failed' in a);
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (failed.length) {
    return {
      ok: false,
      detail: `The Local Contexts Hub could not be asked about ${plural(failed.length, 'project')}: ${failed[0]?.failed}`,
    };
  }
  const isPublic = all.filter((a) => 'found' in a && a.found && a.public).length;
  const unknown = all.filter((a) => 'found' in a && !a.found).length;
  return {
    ok: true,
    detail: `Asked about ${plural(all.length, 'project')}: ${isPublic} public, ${all.length - isPublic - unknown} not public, ${unknown} unknown to the hub.`,
  };
}

async function recordHubCheck(db: Db, outcome: { ok: boolean; detail: string }): Promise<void> {
  await db
    .insert(serviceChecks)
    .values({ service: HUB_SERVICE, ...outcome, checkedAt: sql`now()` })
    .onConflictDoUpdate({ target: serviceChecks.service, set: { ok: outcome.ok, detail: outcome.detail, checkedAt: sql`now()` } });
}

/**
 * Asks the hub about each project once and keeps how it answered for /api/health (service_checks); an outage is
 * logged, and the projects not answered about have a `failed` answer.
 */
export async function askHubAndRecord(
  deps: { db: Db; logger: Logger; hub: LocalContextsClient },
  projectIds: string[],
): Promise<Map<string, HubAnswer>> {
  const answers = await askHub(deps.hub, projectIds);
  const outcome = hubOutcome(answers);
  await recordHubCheck(deps.db, outcome);
  if (!outcome.ok)
    deps.logger.warn({ service: HUB_SERVICE, detail: outcome.detail }, 'rights check: the Local Contexts Hub did not answer');
  return answers;
}

/** The hub's last outcome, from service_checks (never a live call: health must stay fast). */
export async function hubCheck(db: Db): Promise<ServiceCheck> {
  const [row] = await db.select().from(serviceChecks).where(eq(serviceChecks.service, HUB_SERVICE));
  if (!row)
    return { ok: null, detail: 'The Local Contexts Hub has not been asked yet (no private sample has been checked).', checked_at: null };
  return { ok: row.ok, detail: row.detail, checked_at: row.checkedAt.toISOString() };
}

/** A sample's outcome of an answer about its project, in words. */
export function outcomeOf(
  projectId: string,
  answer: HubAnswer | undefined,
): { outcome: RightsOutcome; privacy: string | null; detail: string } {
  if (!answer || 'failed' in answer) {
    return {
      outcome: 'hub_unreachable',
      privacy: null,
      detail: `The Local Contexts Hub could not be asked about project ${projectId}${answer ? ` (${answer.failed})` : ''}; the sample stays private.`,
    };
  }
  if (!answer.found) {
    return {
      outcome: 'unknown_project',
      privacy: null,
      detail: `The Local Contexts Hub does not know the traditional-knowledge project ${projectId}: correct the manifest's project id, or ask the community to register it.`,
    };
  }
  if (answer.public) {
    return {
      outcome: 'cleared',
      privacy: answer.privacy,
      detail: `Traditional-knowledge project ${projectId} is public at the Local Contexts Hub: the sample can be decided.`,
    };
  }
  return {
    outcome: 'not_public',
    privacy: answer.privacy,
    detail: `Traditional-knowledge project ${projectId} is ${answer.privacy} at the Local Contexts Hub, not public: the sample waits until the community makes it public.`,
  };
}
