import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '@/db/schema';
import { createProfile } from './support/flows';
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
