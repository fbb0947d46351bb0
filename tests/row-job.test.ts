import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import { createHarness, type Harness } from './support/harness';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const jobsFor = async (emailId: string) => {
  const r = (await h.database.db.execute(sql`select name from pgboss.job where data->>'emailId' = ${emailId}`)) as unknown;
  return (Array.isArray(r) ? r : ((r as { rows: unknown[] }).rows ?? [])) as { name: string }[];
};

describe("an admin's retry of a row job (lib/jobs/row-job.ts)", () => {
  it('reopens the failed row, queues its job for it, and refuses a row that is not failed', async () => {
    const [row] = await h.database.db
      .insert(emails)
      .values({
        kind: 'password_reset',
        to: ['a@example.org'],
        userIds: [],
        subject: 's',
        body: 'b',
        status: 'failed',
        result: 'refused',
        attempts: 4,
      })
      .returning({ id: emails.id });
    const id = row!.id;
    const retry = () => h.database.db.transaction((tx) => h.deps.jobs.reopen(tx, 'email.send', { emailId: id }));
    expect(await retry()).toBe(`email ${id}`);
    const [reopened] = await h.database.db.select().from(emails).where(eq(emails.id, id));
    expect(reopened).toMatchObject({ status: 'queued', result: null, attempts: 0 });
    expect(await jobsFor(id)).toEqual([{ name: 'email.send' }]);
    await expect(retry()).rejects.toMatchObject({ code: 'conflict', message: 'The email is no longer failed; nothing to retry.' });
  });
});
