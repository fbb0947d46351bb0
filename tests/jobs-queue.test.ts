import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '@/db/schema';
import { createProfile, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
let profileId: string;
let userId: number;

beforeAll(async () => {
  h = await createHarness();
  const u = await h.user();
  userId = u.user.id;
  profileId = await createProfile(h, u.key, { title: 'Queue', description: '', type: 'biodata' });
});
afterAll(() => h.close());

const jobsFor = async (submissionId: string) =>
  (await h.database.db.execute(
    sql`select name, data, start_after > now() + interval '30 seconds' as later from pgboss.job where data->>'submissionId' = ${submissionId}`,
  )) as unknown;
const rowsOf = (r: unknown) => (Array.isArray(r) ? r : ((r as { rows: unknown[] }).rows ?? [])) as Record<string, unknown>[];

describe('a job sent in a transaction', () => {
  it('exists once the transaction commits, with its data and its start time', async () => {
    const id = await h.database.db.transaction(async (tx) => {
      const [row] = await tx.insert(submissions).values({ kind: 'samples', repository: 'ena', profileId, createdBy: userId }).returning();
      await h.deps.jobs.send('samples.register', { submissionId: row!.id }, { tx, startAfterSeconds: 60 });
      return row!.id;
    });
    expect(rowsOf(await jobsFor(id))).toEqual([{ name: 'samples.register', data: { submissionId: id }, later: true }]);
  });

  it('does not exist when the transaction rolls back, nor does the row that needed it', async () => {
    let id = '';
    await expect(
      h.database.db.transaction(async (tx) => {
        const [row] = await tx.insert(submissions).values({ kind: 'samples', repository: 'ena', profileId, createdBy: userId }).returning();
        id = row!.id;
        await h.deps.jobs.send('samples.register', { submissionId: id }, { tx });
        throw new Error('the write fails after the job was sent');
      }),
    ).rejects.toThrow('the write fails');
    expect(rowsOf(await jobsFor(id))).toEqual([]);
    expect(await h.database.db.select().from(submissions).where(eq(submissions.id, id))).toEqual([]);
  });
});

describe('a job due now', () => {
  it('is taken when its transaction commits, and a backlog one job after another, not at the workers’ next poll', async () => {
    // workers that look for jobs nobody announced once a minute: longer than the wait below allows
    const w = await createHarness({}, { workers: true, pollingIntervalSeconds: 60 });
    try {
      // the workers' first looks, made as they start, are over
      await new Promise((r) => setTimeout(r, 1500));
      const ids = [randomUUID(), randomUUID(), randomUUID()];
      // three jobs of one name in one transaction: PostgreSQL delivers one notification for them, so the worker
      // (which takes one job at a time) must look again after each job to run the other two
      await w.database.db.transaction(async (tx) => {
        for (const emailId of ids) await w.deps.jobs.send('email.send', { emailId }, { tx });
      });
      const states = async () =>
        rowsOf(
          await w.database.db.execute(
            sql`select state from pgboss.job where name = 'email.send' and data->>'emailId' in (${sql.join(ids, sql`, `)})`,
          ),
        ).map((r) => r.state);
      expect(await waitFor(states, (s) => s.length === 3 && s.every((x) => x === 'completed'), 'the three jobs to run', 150)).toEqual([
        'completed',
        'completed',
        'completed',
      ]);
    } finally {
      await w.close();
    }
  });
});
