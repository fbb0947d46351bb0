import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { permits, submissions, validationReports } from '@/db/schema';
import type { RequiredPermit } from '@/lib/permits/contract';
import { missingPermits } from '@/lib/permits/permits';
import { reportsWaiting } from '@/lib/reports/home';
import { samplesWaiting } from '@/lib/samples/home';
import { submissionsWaiting } from '@/lib/submissions/home';
import type { UserRecord } from '@/lib/users/users';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * The home page's reads (app/(portal)/page.tsx calls them and renders): a user's recent reports sorted by what they
 * wait for, the permit PDFs the validated ERGA manifests among them still need (read once for all of them, not once a
 * report), the submissions under way or stopped lately, and the samples that wait for the user.
 */

let h: Harness;
let db: Db;
let owner: UserRecord;
let profileId: string;
const DAY = 24 * 3600 * 1000;

const permit = (filename: string): RequiredPermit => ({ filename, required_by: ['SAN0001'], kinds: ['SAMPLING'] });

/** A report of the owner's profile, created `ago` milliseconds back so that lists keep the order of the calls. */
async function report(fileName: string, values: Partial<typeof validationReports.$inferInsert>, ago: number): Promise<string> {
  const id = randomUUID();
  await db.insert(validationReports).values({
    id,
    userId: owner.id,
    profileId,
    project: 'erga',
    version: '2.5',
    fileName,
    fileSize: 1,
    status: 'complete',
    summary: { rows: 2, errors: 0, warnings: 0 },
    createdAt: new Date(Date.now() - ago),
    finishedAt: new Date(Date.now() - ago),
    ...values,
  });
  return id;
}

async function received(reportId: string, fileName: string) {
  await db.insert(permits).values({
    profileId,
    reportId,
    fileName,
    storedName: fileName,
    sizeInBytes: 1,
    sha256: '0',
    content: Buffer.from('%PDF'),
  });
}

/** The database with its statements counted: every select, insert, update or raw statement a read starts. */
function counted(inner: Db): { db: Db; statements: () => number } {
  let n = 0;
  const starts = new Set(['select', 'selectDistinct', 'execute', '$count', 'insert', 'update', 'delete']);
  const db = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof key === 'string' && starts.has(key) && typeof value === 'function') {
        return (...args: unknown[]) => {
          n++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value;
    },
  });
  return { db, statements: () => n };
}

beforeAll(async () => {
  h = await createHarness();
  db = h.database.db;
  const made = await h.user({ memberOf: ['erga'] });
  owner = made.user;
  profileId = await createProfile(h, made.key, {
    title: 'Home page',
    description: '',
    type: 'erga',
    associated_type: ['BGE'],
    sequencing_centre: ['CNAG'],
  });
}, 60_000);
afterAll(() => h.close());

describe('the home page’s reports', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.confirmable = await report('clean.xlsx', {}, 9_000);
    ids.waitsForOne = await report('one-permit.xlsx', { permits: [permit('a.pdf')] }, 8_000);
    ids.waitsForHalf = await report('half-permits.xlsx', { permits: [permit('a.pdf'), permit('b.pdf')] }, 7_000);
    await received(ids.waitsForHalf, 'a.pdf');
    ids.permitsIn = await report('permits-in.xlsx', { permits: [permit('c.pdf')] }, 6_000);
    await received(ids.permitsIn, 'c.pdf');
    ids.broken = await report('broken.xlsx', { summary: { rows: 2, errors: 3, warnings: 0 }, permits: [permit('d.pdf')] }, 5_000);
    ids.running = await report('running.xlsx', { status: 'running', finishedAt: null }, 4_000);
    ids.pending = await report('pending.xlsx', { status: 'pending', finishedAt: null }, 3_000);
    ids.confirmed = await report('confirmed.xlsx', { confirmedManifestId: randomUUID(), confirmedAt: new Date() }, 2_000);
    ids.failed = await report('failed.xlsx', { status: 'failed', failure: 'unreadable' }, 1_000);
  });

  it('are sorted by what they wait for, newest first, with the permit files each still needs', async () => {
    const waiting = await reportsWaiting(db, owner);
    const names = (rows: { fileName: string }[]) => rows.map((r) => r.fileName);
    expect(names(waiting.toConfirm)).toEqual(['permits-in.xlsx', 'clean.xlsx']);
    expect(waiting.awaitingPermits.map((r) => [r.fileName, r.missingPermits])).toEqual([
      ['half-permits.xlsx', ['b.pdf']],
      ['one-permit.xlsx', ['a.pdf']],
    ]);
    // a manifest with errors is corrected first: the permits it names are not asked for yet
    expect(names(waiting.toCorrect)).toEqual(['broken.xlsx']);
    expect(names(waiting.validating)).toEqual(['pending.xlsx', 'running.xlsx']);
  });

  it('read the permits of every report at once: more reports waiting for permits, no more statements', async () => {
    const before = counted(db);
    await reportsWaiting(before.db, owner);
    for (let i = 0; i < 5; i++) await report(`more-permits-${i}.xlsx`, { permits: [permit(`more-${i}.pdf`)] }, 10_000 + i);
    const after = counted(db);
    const waiting = await reportsWaiting(after.db, owner);
    expect(waiting.awaitingPermits).toHaveLength(7);
    expect(after.statements()).toBe(before.statements());
  });

  it('agree with what a single report’s page says it misses', async () => {
    const permitsOf = async (id: string) => {
      const [row] = await db
        .select({ id: validationReports.id, permits: validationReports.permits })
        .from(validationReports)
        .where(eq(validationReports.id, id));
      return row!;
    };
    expect(await missingPermits(db, await permitsOf(ids.waitsForHalf!))).toEqual(['b.pdf']);
    expect(await missingPermits(db, await permitsOf(ids.permitsIn!))).toEqual([]);
  });
});

describe('the home page’s submissions', () => {
  it('count those under way and those refused or failed since the time asked', async () => {
    const since = new Date(Date.now() - 14 * DAY);
    const base = { kind: 'samples' as const, repository: 'ena' as const, profileId, createdBy: owner.id };
    const empty = await submissionsWaiting(db, owner, since);
    expect(empty).toEqual({ running: 0, stopped: 0 });
    await db.insert(submissions).values([
      { ...base, status: 'pending' },
      { ...base, status: 'processing' },
      { ...base, status: 'accepted', finishedAt: new Date() },
      { ...base, status: 'rejected', finishedAt: new Date(Date.now() - DAY) },
      // refused before the time asked: on the Submissions page only
      { ...base, status: 'failed', finishedAt: new Date(Date.now() - 30 * DAY), updatedAt: new Date(Date.now() - 30 * DAY) },
      // never finished: its last change counts
      { ...base, status: 'failed', finishedAt: null, updatedAt: new Date(Date.now() - 2 * DAY) },
    ]);
    expect(await submissionsWaiting(db, owner, since)).toEqual({ running: 2, stopped: 2 });
  });
});

describe('the home page’s samples', () => {
  it('are none for a researcher with no samples, and no review is counted for who reviews none', async () => {
    const waiting = await samplesWaiting(db, owner, new Date(Date.now() - 14 * DAY));
    expect(waiting).toEqual({ awaiting: 0, toReview: { rows: [], total: 0 }, rejected: { rows: [], more: false }, tolids: [] });
  });
});
