import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/db/rows';
import { deadLetters, jobRuns, submissions } from '@/db/schema';
import { RETRY_LIMIT } from '@/lib/jobs/queue';
import { LOCK_FREE_CONFIRM_SECONDS } from '@/lib/jobs/runs';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

// no workers: the tests put jobs in the states a dead process leaves and run the sweep by hand
let h: Harness;
let profileId: string;
let userId: number;
let adminKey: string;
let userKey: string;

beforeAll(async () => {
  h = await createHarness();
  const u = await h.user();
  userId = u.user.id;
  userKey = u.key;
  adminKey = (await h.user({ isAdmin: true })).key;
  profileId = await createProfile(h, u.key, { title: 'Recovery', description: '', type: 'biodata' });
}, 60_000);
afterAll(() => h.close());

const db = () => h.database.db;

interface JobRow {
  id: string;
  state: string;
  retry_count: number;
  /** it may run now (pg-boss's start_after has passed) */
  due: boolean;
}
const jobsOf = async (submissionId: string) =>
  rowsOf<JobRow>(
    await db().execute(
      sql`select id::text as id, state::text as state, retry_count, start_after <= now() as due
        from pgboss.job where data->>'submissionId' = ${submissionId} order by created_on`,
    ),
  );

/** A study submission with its job, as queueStudySubmission leaves them. */
async function queuedSubmission(): Promise<{ id: string; jobId: string }> {
  const id = await db().transaction(async (tx) => {
    const [row] = await tx.insert(submissions).values({ kind: 'study', repository: 'zenodo', profileId, createdBy: userId }).returning();
    await h.deps.jobs.send('study.submit', { submissionId: row!.id }, { tx });
    return row!.id;
  });
  return { id, jobId: (await jobsOf(id))[0]!.id };
}

/** The job as a process that died mid-run leaves it: active in pg-boss, its heartbeat minutes old. */
async function dieWhileRunning(jobId: string, opts: { runs?: number; heartbeatSecondsAgo?: number; instance?: string } = {}) {
  await db().execute(sql`
    update pgboss.job set state = 'active', started_on = now() - interval '5 minutes', retry_count = ${opts.runs ?? 0}
    where id = ${jobId}::uuid`);
  await db()
    .insert(jobRuns)
    .values({
      jobId,
      name: 'study.submit',
      instance: opts.instance ?? 'gone-host:4242:123456',
      startedAt: new Date(Date.now() - 300_000),
      heartbeatAt: new Date(Date.now() - (opts.heartbeatSecondsAgo ?? 240) * 1000),
    });
}

describe('a job whose process died', () => {
  it('is handed back to the queue by the sweep, to run again at once (the run it lost counts)', async () => {
    const { id, jobId } = await queuedSubmission();
    await dieWhileRunning(jobId);
    const swept = await h.queue.sweep();
    expect(swept.dead).toBeGreaterThanOrEqual(1);
    expect((await jobsOf(id))[0]).toMatchObject({ id: jobId, state: 'retry', retry_count: 0, due: true });
    expect(await db().select().from(jobRuns).where(eq(jobRuns.jobId, jobId))).toEqual([]);
    // its work is untouched: the next run resumes it
    expect((await db().select().from(submissions).where(eq(submissions.id, id)))[0]!.status).toBe('pending');
  });

  it('on its last run, fails its work with a reason the user can read and lists it for admins', async () => {
    const { id, jobId } = await queuedSubmission();
    await dieWhileRunning(jobId, { runs: RETRY_LIMIT });
    await h.queue.sweep();
    expect((await jobsOf(id))[0]).toMatchObject({ state: 'failed' });
    const [sub] = await db().select().from(submissions).where(eq(submissions.id, id));
    expect(sub!.status).toBe('failed');
    expect(sub!.error).toMatch(
      /could not be completed \(The process running it stopped \(gone-host:4242:123456\) before it finished\. It had run 4 times\.\); submit it again/,
    );
    const [letter] = await db().select().from(deadLetters).where(sql`${deadLetters.data}->>'submissionId' = ${id}`);
    expect(letter).toMatchObject({ name: 'study.submit', jobId, attempts: RETRY_LIMIT + 1 });
  });

  it('is handed back once when several sweeps find it at the same moment', async () => {
    const { id, jobId } = await queuedSubmission();
    await dieWhileRunning(jobId);
    const swept = await Promise.all([h.queue.sweep(), h.queue.sweep(), h.queue.sweep()]);
    expect(swept.reduce((n, r) => n + r.dead, 0)).toBe(1);
    expect(await jobsOf(id)).toMatchObject([{ id: jobId, state: 'retry', retry_count: 0 }]);
  });

  it('on PostgreSQL, a process that just died: taken over once its lock is seen free twice, with no heartbeat between', async () => {
    if (h.database.kind !== 'postgres') return; // an embedded database has one process: every other one is dead
    const { id, jobId } = await queuedSubmission();
    // its heartbeat a few seconds old, and no process holds its lock
    await dieWhileRunning(jobId, { heartbeatSecondsAgo: 3, instance: 'gone-host:4243:654321' });
    await h.queue.sweep();
    expect((await jobsOf(id))[0]).toMatchObject({ state: 'active' });
    await new Promise((r) => setTimeout(r, LOCK_FREE_CONFIRM_SECONDS * 1000 + 200));
    await h.queue.sweep();
    expect((await jobsOf(id))[0]).toMatchObject({ state: 'retry', due: true });
  });

  it('on PostgreSQL, a lock seen free but a heartbeat since: left alone (a live process taking its lock again)', async () => {
    if (h.database.kind !== 'postgres') return;
    const { id, jobId } = await queuedSubmission();
    await dieWhileRunning(jobId, { heartbeatSecondsAgo: 3, instance: 'gone-host:4244:765432' });
    await h.queue.sweep();
    await new Promise((r) => setTimeout(r, LOCK_FREE_CONFIRM_SECONDS * 1000 + 200));
    await db().update(jobRuns).set({ heartbeatAt: sql`now()` }).where(eq(jobRuns.jobId, jobId));
    await h.queue.sweep();
    expect((await jobsOf(id))[0]).toMatchObject({ state: 'active' });
    await db().execute(sql`update pgboss.job set state = 'completed' where id = ${jobId}::uuid`);
  });

  it('is left alone while its process lives, however slow its heartbeat (another instance on PostgreSQL)', async () => {
    if (h.database.kind !== 'postgres') return; // an embedded database has one process: every other one is dead
    const { id, jobId } = await queuedSubmission();
    // a process that holds its instance lock, as a live one does
    const { startLiveness } = await import('@/lib/jobs/liveness');
    const live = await startLiveness(h.database, h.deps.logger);
    await dieWhileRunning(jobId, { heartbeatSecondsAgo: 120, instance: live.instance });
    await h.queue.sweep();
    expect((await jobsOf(id))[0]).toMatchObject({ state: 'active' });
    await live.stop();
    await db().execute(sql`update pgboss.job set state = 'completed' where id = ${jobId}::uuid`);
  });
});

describe('work whose job is gone', () => {
  it('is queued again when its job was never sent', async () => {
    const [row] = await db().insert(submissions).values({ kind: 'study', repository: 'zenodo', profileId, createdBy: userId }).returning();
    expect(await jobsOf(row!.id)).toEqual([]);
    const swept = await h.queue.sweep();
    expect(swept.requeued).toBeGreaterThanOrEqual(1);
    expect(await jobsOf(row!.id)).toMatchObject([{ state: 'created' }]);
  });

  it('is queued once when two instances sweep at the same moment', async () => {
    const [row] = await db().insert(submissions).values({ kind: 'study', repository: 'zenodo', profileId, createdBy: userId }).returning();
    await Promise.all([h.queue.sweep(), h.queue.sweep(), h.queue.sweep()]);
    expect(await jobsOf(row!.id)).toMatchObject([{ state: 'created' }]);
  });

  it('is given up when its job failed for good (expired on its last run)', async () => {
    const { id, jobId } = await queuedSubmission();
    await db().execute(sql`update pgboss.job set state = 'failed', retry_count = ${RETRY_LIMIT} where id = ${jobId}::uuid`);
    await h.queue.sweep();
    const [sub] = await db().select().from(submissions).where(eq(submissions.id, id));
    expect(sub).toMatchObject({ status: 'failed' });
    expect(sub!.error).toMatch(/Its job failed 4 times without finishing/);
  });

  it('a publication left processing by a dead process ends failed and no longer counts', async () => {
    const [row] = await db()
      .insert(submissions)
      .values({
        kind: 'study',
        repository: 'zenodo',
        action: 'publish',
        status: 'processing',
        profileId,
        createdBy: userId,
        updatedAt: new Date(Date.now() - 3_600_000),
      })
      .returning();
    await h.queue.sweep();
    const [after] = await db().select().from(submissions).where(eq(submissions.id, row!.id));
    expect(after).toMatchObject({ status: 'failed' });
    expect(after!.error).toMatch(/publication was interrupted/);
  });
});

describe('the dead-letter list', () => {
  it('shows admins the queue and the given-up work, and a retry reopens it once', async () => {
    const { id, jobId } = await queuedSubmission();
    await dieWhileRunning(jobId, { runs: RETRY_LIMIT });
    await h.queue.sweep();

    const list = await h.request('/api/admin/jobs?open=true&limit=50', { key: adminKey });
    expect(list.status).toBe(200);
    const body = (await list.json()) as {
      queue: Record<string, number>;
      number_found: number;
      data: { id: string; data: Record<string, string> }[];
    };
    expect(body.queue).toEqual(
      expect.objectContaining({ waiting: expect.any(Number), oldest_waiting_seconds: expect.any(Number), dead_letters: body.number_found }),
    );
    const entry = body.data.find((d) => d.data.submissionId === id)!;
    expect(entry).toBeDefined();

    // not an admin's: the list does not exist for them
    expect((await h.request('/api/admin/jobs', { key: userKey })).status).toBe(404);
    expect((await h.request(`/api/admin/jobs/failed/${entry.id}/retry`, { method: 'POST', key: userKey })).status).toBe(404);

    const [first, second] = await Promise.all([
      h.request(`/api/admin/jobs/failed/${entry.id}/retry`, { method: 'POST', key: adminKey }),
      h.request(`/api/admin/jobs/failed/${entry.id}/retry`, { method: 'POST', key: adminKey }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const [sub] = await db().select().from(submissions).where(eq(submissions.id, id));
    expect(sub).toMatchObject({ status: 'pending', error: null });
    expect((await jobsOf(id)).filter((j) => j.state === 'created')).toHaveLength(1);

    expect((await h.request('/api/admin/jobs/failed/not-a-uuid/retry', { method: 'POST', key: adminKey })).status).toBe(404);
    expect((await h.request('/api/admin/jobs?limit=0', { key: adminKey })).status).toBe(400);
  });
});
