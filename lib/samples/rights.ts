import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { manifests, profiles, type SampleStatus, samples, serviceChecks, users } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { jobSpec } from '@/lib/jobs/spec';
import { tellManagersOfManifest } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import { isTransient, RepositoryError } from '@/lib/repositories/errors';
import type { LocalContextsClient, ProjectPrivacyAnswer } from '@/lib/repositories/local-contexts';
import { managesProject, type UserRecord } from '@/lib/users/users';
import { LABEL_COLUMNS, sampleLabels } from './columns';
import type { PrivateSamples, RightsCheckAnswer, RightsCheckSample, RightsOutcome, ServiceCheck } from './contract';
import { setStatus } from './registration';
import { RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID, traditionalKnowledgeProject } from './rights-hold';

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

/** The service_checks row of the hub. */
export const HUB_SERVICE = 'local_contexts';
/** A private sample is looked up again once its last answer is this old. */
export const RECHECK_AFTER_HOURS = 24;
// one run stays short: at most this many samples, and this many hub calls
const DUE_BATCH = 1_000;
const PROJECTS_PER_RUN = 100;

/** What the hub said of one project, or why it said nothing. */
type HubAnswer = ProjectPrivacyAnswer | { failed: string };

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

/** The hub's last outcome, from service_checks (never a live call: health must stay fast). */
export async function hubCheck(db: Db): Promise<ServiceCheck> {
  const [row] = await db.select().from(serviceChecks).where(eq(serviceChecks.service, HUB_SERVICE));
  if (!row)
    return { ok: null, detail: 'The Local Contexts Hub has not been asked yet (no private sample has been checked).', checked_at: null };
  return { ok: row.ok, detail: row.detail, checked_at: row.checkedAt.toISOString() };
}

/** A sample's outcome of an answer about its project, in words. */
function outcomeOf(projectId: string, answer: HubAnswer | undefined): { outcome: RightsOutcome; privacy: string | null; detail: string } {
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

// the columns a check reads: the two manifest fields that name the project, not the whole record
const checkColumns = {
  id: samples.id,
  manifestId: samples.manifestId,
  profileId: samples.profileId,
  project: samples.project,
  status: samples.status,
  applicable: sql<string | null>`${samples.fields} ->> ${RIGHTS_APPLICABLE}`,
  projectField: sql<string | null>`${samples.fields} ->> ${RIGHTS_PROJECT_ID}`,
};
interface CheckRow {
  id: string;
  manifestId: string;
  profileId: string;
  project: TolProject;
  status: SampleStatus;
  applicable: string | null;
  projectField: string | null;
}

const projectOf = (r: Pick<CheckRow, 'project' | 'applicable' | 'projectField'>): string | null =>
  traditionalKnowledgeProject(r.project, { [RIGHTS_APPLICABLE]: r.applicable ?? '', [RIGHTS_PROJECT_ID]: r.projectField ?? '' });

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
        .where(
          inArray(
            samples.id,
            cleared.map((r) => r.id),
          ),
        );
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
  const answers = await askHub(deps.hub, projectIds);
  const outcome = hubOutcome(answers);
  await recordHubCheck(deps.db, outcome);
  if (!outcome.ok)
    deps.logger.warn({ service: HUB_SERVICE, detail: outcome.detail }, 'rights check: the Local Contexts Hub did not answer');
  const asked = due.filter((r) => {
    const p = projectOf(r);
    return p !== null && answers.has(p);
  });
  const cleared = await applyAnswers(
    deps,
    asked.map((r) => r.id),
    answers,
  );
  return { projects: projectIds.length, cleared: cleared.size, ok: outcome.ok };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

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
  const answers = projectIds.length ? await askHub(deps.hub, projectIds) : new Map<string, HubAnswer>();
  if (projectIds.length) {
    const outcome = hubOutcome(answers);
    await recordHubCheck(deps.db, outcome);
    if (!outcome.ok)
      deps.logger.warn({ service: HUB_SERVICE, detail: outcome.detail }, 'rights check: the Local Contexts Hub did not answer');
  }
  await applyAnswers(
    deps,
    held.map((r) => r.id),
    answers,
  );

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

/** The projects whose private samples this user may see and check: as for deciding (managesProject). */
const heldProjects = (user: UserRecord): TolProject[] => TOL_PROJECTS.filter((p) => managesProject(user, p));

/** GET sample/private: the private samples of the caller's projects, oldest first, with why each waits. */
export async function privateForManager(
  db: Db,
  user: UserRecord,
  hub: Pick<LocalContextsClient, 'projectPage'>,
  page: { limit: number; offset: number },
): Promise<PrivateSamples> {
  const projects = heldProjects(user);
  const last = await hubCheck(db);
  if (!projects.length) return { status: 'OK', number_found: 0, data: [], hub: last };
  const where = and(eq(samples.status, 'private'), inArray(samples.project, projects));
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(where);
  const rows = await db
    .select({
      ...checkColumns,
      ...LABEL_COLUMNS,
      rightsCheckedAt: samples.rightsCheckedAt,
      statusDetail: samples.statusDetail,
      timeCreated: samples.timeCreated,
    })
    .from(samples)
    .where(where)
    .orderBy(asc(samples.timeCreated), asc(samples.id))
    .limit(page.limit)
    .offset(page.offset);
  return {
    status: 'OK',
    number_found: Number(count?.n ?? 0),
    data: rows.map((r) => {
      const projectId = projectOf(r);
      return {
        svc_id: r.id,
        manifest_id: r.manifestId,
        profile_id: r.profileId,
        tol_project: manifestTypeOf(r.project),
        ...sampleLabels(r),
        project_id: projectId,
        project_url: projectId ? hub.projectPage(projectId) : null,
        rights_checked_at: iso(r.rightsCheckedAt),
        status_detail: r.statusDetail,
        time_created: r.timeCreated.toISOString(),
      };
    }),
    hub: last,
  };
}

/** `rights.check`, hourly: private samples not looked up for a day, asked about at the Local Contexts Hub. */
export const rightsCheckJob = jobSpec({
  name: 'rights.check',
  expireSeconds: 30 * 60,
  schedule: '23 * * * *',
  async run(deps: RightsDeps) {
    const done = await checkDueRights(deps);
    // an unreachable hub ends the job normally: the samples stay private and are asked about at the next run
    if (done.projects) deps.logger.info({ ...done }, 'rights check asked the Local Contexts Hub');
  },
});
