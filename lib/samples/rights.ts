import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { manifests, profiles, samples, users } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { jobSpec } from '@/lib/jobs/spec';
import { tellManagersOfManifest } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import type { LocalContextsClient } from '@/lib/repositories/local-contexts';
import { managesProject, type UserRecord } from '@/lib/users/users';
import { askHubAndRecord, type HubAnswer, hubCheck, outcomeOf } from './hub';
import { type CheckRow, checkColumns, iso, projectOf } from './private';
import { setStatus } from './registration';
import type { RightsCheckAnswer, RightsCheckSample } from './review-contract';

/**
 * Clearing the rights hold (lib/samples/rights-hold.ts): a `private` ERGA sample's traditional-knowledge project is
 * looked up at the Local Contexts Hub, one call per distinct project, hourly by the `rights.check` job for samples
 * not looked up for a day, or at once for the samples a manager names (POST sample/rights/check). When the hub says
 * the project is `Public`, the sample becomes `pending` (a system audit row), rights_cleared_at is set and the
 * project's sample managers are emailed as for a new manifest; from then on it can be decided, and the public API
 * shows it. Any other answer only records when it was given and what it said. An unreachable hub changes nothing:
 * the samples stay private and are asked about again at the next run; service_checks keeps the last outcome for
 * /api/health, which never calls the hub itself.
 */

export interface RightsDeps {
  db: Db;
  logger: Logger;
  hub: LocalContextsClient;
  mail: MailContext;
}

/** A private sample is looked up again once its last answer is this old. */
export const RECHECK_AFTER_HOURS = 24;
// one run stays short: at most this many samples, and this many hub calls
const DUE_BATCH = 1_000;
const PROJECTS_PER_RUN = 100;

/**
 * Writes the hub's answers onto the samples that are still private and still name the project asked about (a
 * re-upload may have changed either while the hub was asked), in one transaction; the managers hear of cleared
 * samples in it. Returns the ids cleared.
 */
async function applyAnswers(deps: RightsDeps, ids: string[], answers: Map<string, HubAnswer>): Promise<Set<string>> {
  if (!ids.length) return new Set();
  return deps.db.transaction(async (tx) => {
    const rows: CheckRow[] = await tx
      .select(checkColumns)
      .from(samples)
      .where(and(inArray(samples.id, ids), eq(samples.status, 'private')))
      .orderBy(asc(samples.id))
      .for('update');
    const cleared: CheckRow[] = [];
    const waiting = new Map<string, string[]>();
    for (const r of rows) {
      const projectId = projectOf(r);
      const answer = projectId ? answers.get(projectId) : undefined;
      if (!projectId || !answer || 'failed' in answer) continue;
      const o = outcomeOf(projectId, answer);
      if (o.outcome === 'cleared') cleared.push(r);
      else waiting.set(o.detail, [...(waiting.get(o.detail) ?? []), r.id]);
    }
    for (const [detail, list] of waiting) {
      await tx.update(samples).set({ rightsCheckedAt: sql`now()`, statusDetail: detail }).where(inArray(samples.id, list));
    }
    if (cleared.length) {
      await setStatus(tx, cleared, 'pending', null);
      await tx
        .update(samples)
        .set({ rightsCheckedAt: sql`now()`, rightsClearedAt: sql`now()` })
        .where(inArray(samples.id, idsOf(cleared)));
      await tellManagers(tx, deps.mail, cleared);
    }
    return new Set(cleared.map((r) => r.id));
  });
}

/** One email per manifest to the project's sample managers, as for a new manifest: its samples now await them. */
async function tellManagers(tx: Db, mail: MailContext, cleared: CheckRow[]): Promise<void> {
  const byManifest = new Map<string, CheckRow[]>();
  for (const r of cleared) byManifest.set(r.manifestId, [...(byManifest.get(r.manifestId) ?? []), r]);
  const heads = await tx
    .select({ id: manifests.id, fileName: manifests.fileName, profileTitle: profiles.title, uploader: users.username })
    .from(manifests)
    .innerJoin(profiles, eq(profiles.id, manifests.profileId))
    .leftJoin(users, eq(users.id, manifests.createdBy))
    .where(inArray(manifests.id, [...byManifest.keys()]));
  for (const head of heads) {
    const list = byManifest.get(head.id) ?? [];
    const first = list[0];
    if (!first) continue;
    const projects = [...new Set(list.map((r) => projectOf(r)))].join(', ');
    await tellManagersOfManifest(tx, mail, {
      project: first.project,
      profileId: first.profileId,
      profileTitle: head.profileTitle,
      manifestId: head.id,
      fileName: head.fileName,
      uploader: head.uploader ?? 'a former user',
      created: list.length,
      updated: 0,
      note: `The Local Contexts Hub now shows their traditional-knowledge project (${projects}) as public: their rights are cleared and they can be decided.`,
    });
  }
}

/**
 * The scheduled check (`rights.check`): private samples whose project the hub has not answered about for
 * RECHECK_AFTER_HOURS, oldest answer first, at most PROJECTS_PER_RUN projects. Returns what it did, for the log.
 */
export async function checkDueRights(deps: RightsDeps): Promise<{ projects: number; cleared: number; ok: boolean }> {
  const due: CheckRow[] = await deps.db
    .select(checkColumns)
    .from(samples)
    .where(
      sql`${samples.status} = 'private' and (${samples.rightsCheckedAt} is null or ${samples.rightsCheckedAt} < now() - make_interval(hours => ${RECHECK_AFTER_HOURS}))`,
    )
    .orderBy(sql`${samples.rightsCheckedAt} asc nulls first`, asc(samples.timeCreated), asc(samples.id))
    .limit(DUE_BATCH);
  const projectIds = [...new Set(due.map(projectOf).filter((p): p is string => p !== null))].slice(0, PROJECTS_PER_RUN);
  if (!projectIds.length) return { projects: 0, cleared: 0, ok: true };
  const answers = await askHubAndRecord(deps, projectIds);
  const asked = due.filter((r) => {
    const p = projectOf(r);
    return p !== null && answers.has(p);
  });
  const cleared = await applyAnswers(deps, idsOf(asked), answers);
  return { projects: projectIds.length, cleared: cleared.size, ok: ![...answers.values()].some((a) => 'failed' in a) };
}

/**
 * POST sample/rights/check: the named samples' projects asked about at once. Only samples the caller may decide
 * (their project's sample managers, admins); any other id is answered 404 like an unknown one, so ids do not leak.
 * A sample that is not private is answered as it is, without asking the hub.
 */
export async function checkRightsNow(deps: RightsDeps, user: UserRecord, svcIds: string[]): Promise<RightsCheckAnswer> {
  const ids = [...new Set(svcIds.map((s) => s.trim().toLowerCase()))];
  const rows: CheckRow[] = await deps.db.select(checkColumns).from(samples).where(inArray(samples.id, ids));
  const mine = rows.filter((r) => managesProject(user, r.project));
  const missing = ids.filter((id) => !mine.some((r) => r.id === id));
  if (missing.length) throw NotFound(`No sample you may decide with svc_id ${missing.join(', ')}`);

  const held = mine.filter((r) => r.status === 'private');
  const projectIds = [...new Set(held.map(projectOf).filter((p): p is string => p !== null))];
  const answers = projectIds.length ? await askHubAndRecord(deps, projectIds) : new Map<string, HubAnswer>();
  await applyAnswers(deps, idsOf(held), answers);

  const after = await deps.db
    .select({ id: samples.id, status: samples.status, checkedAt: samples.rightsCheckedAt, clearedAt: samples.rightsClearedAt })
    .from(samples)
    .where(inArray(samples.id, ids));
  const now = new Map(after.map((r) => [r.id, r]));
  const data = ids.flatMap((id): RightsCheckSample[] => {
    const before = mine.find((r) => r.id === id);
    const r = now.get(id);
    if (!before || !r) return [];
    const projectId = projectOf(before);
    const stamps = { rights_checked_at: iso(r.checkedAt), rights_cleared_at: iso(r.clearedAt) };
    if (before.status !== 'private' || !projectId) {
      const detail = r.clearedAt
        ? `Not private: its traditional-knowledge project was found public at the Local Contexts Hub on ${r.clearedAt.toISOString()}.`
        : projectId
          ? `Not private: it is ${r.status}.`
          : 'Not private: no traditional-knowledge rights hold it.';
      return [{ svc_id: id, status: r.status, project_id: projectId, outcome: 'not_private', project_privacy: null, detail, ...stamps }];
    }
    const o = outcomeOf(projectId, answers.get(projectId));
    return [
      { svc_id: id, status: r.status, project_id: projectId, outcome: o.outcome, project_privacy: o.privacy, detail: o.detail, ...stamps },
    ];
  });
  return { data, hub: await hubCheck(deps.db) };
}

const RightsCheckData = z.strictObject({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'rights.check': z.infer<typeof RightsCheckData>;
  }
}

/** `rights.check`, hourly: private samples not looked up for a day, asked about at the Local Contexts Hub. */
export const rightsCheckJob = jobSpec({
  name: 'rights.check',
  label: 'Traditional-knowledge rights check at the Local Contexts Hub',
  data: RightsCheckData,
  expireSeconds: 30 * 60,
  schedule: '23 * * * *',
  async run(deps: RightsDeps) {
    const done = await checkDueRights(deps);
    // an unreachable hub ends the job normally: the samples stay private and are asked about at the next run
    if (done.projects) deps.logger.info({ ...done }, 'rights check asked the Local Contexts Hub');
  },
});
