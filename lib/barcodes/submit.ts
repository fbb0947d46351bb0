import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { barcodes } from '@/db/schema';
import type { Config } from '@/lib/config';
import { Conflict } from '@/lib/errors';
import { UuidSchema } from '@/lib/identifiers/contract';
import { type JobQueue, jobSpec } from '@/lib/jobs/spec';
import { isTransient, RepositoryError, RepositoryRefused } from '@/lib/repositories/errors';
import { runWebinCli, webinCliSettings } from '@/lib/repositories/webin-cli';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { UserRecord } from '@/lib/users/users';
import type { BarcodeChecklist, BarcodeSubmitAnswer } from './contract';
import { barcodeTabFile } from './tab';
import { barcodeProfile } from './upload';

/**
 * Barcodes to ENA through Webin-CLI: one submission per profile, checklist and study (Webin-CLI's manifest names one
 * STUDY, its TAB file one checklist), run as the `barcodes.submit` job: `-validate`, then `-submit`, and the analysis
 * accession (ERZ…) it names onto every barcode of the submission. ENA's refusal (exit 2 or 3) puts its messages on
 * the barcodes, each the messages naming its ENTRYNUMBER or else all; Webin-CLI's own failure (exit 1: ENA or its FTP
 * server unreachable) fails the run, and the queue runs it again; the last failed run's give-up marks the barcodes
 * rejected with why, and submitting again sends them again. Without WEBIN_CLI_JAR the barcodes wait (`waiting`),
 * and every sweep sends them on once it is set.
 */

type Settings = Pick<Config, 'WEBIN_CLI_JAR' | 'JAVA' | 'ENA_USERNAME' | 'ENA_PASSWORD' | 'ENA_WEBIN_URL' | 'DATA_DIR'>;

export interface SubmitBarcodesDeps {
  db: Db;
  config: Settings;
  logger: Logger;
  jobs: JobQueue;
}

type Row = typeof barcodes.$inferSelect;

export const WAITING_DETAIL =
  'Waiting: WEBIN_CLI_JAR is not set, so the service cannot run ENA’s Webin-CLI, the only way ENA takes barcodes. ' +
  'They are checked and kept; an administrator sets WEBIN_CLI_JAR and they are sent without being submitted again.';
const ENA_SETTINGS_MISSING = 'ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.';
const SENDING_DETAIL = 'Being sent to ENA through Webin-CLI.';

const SubmitData = z.object({ batchId: UuidSchema });

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'barcodes.submit': z.infer<typeof SubmitData>;
  }
}

/** Each group of barcodes one Webin-CLI submission takes: same checklist, same study. */
function batchesOf(rows: readonly Pick<Row, 'id' | 'checklistId' | 'studyAccession'>[]) {
  const groups = new Map<string, { checklistId: BarcodeChecklist; studyAccession: string; ids: string[] }>();
  for (const r of rows) {
    const key = `${r.checklistId}|${r.studyAccession}`;
    const group = groups.get(key) ?? { checklistId: r.checklistId, studyAccession: r.studyAccession, ids: [] };
    group.ids.push(r.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The barcodes `processing` in new submissions, and their jobs, in the caller's transaction. */
async function queueBatches(tx: Db, jobs: JobQueue, rows: readonly Pick<Row, 'id' | 'checklistId' | 'studyAccession'>[]) {
  const queued: BarcodeSubmitAnswer['submissions'] = [];
  for (const group of batchesOf(rows)) {
    const batchId = randomUUID();
    await tx
      .update(barcodes)
      .set({ status: 'processing', batchId, error: SENDING_DETAIL, timeUpdated: sql`now()` })
      .where(inArray(barcodes.id, group.ids));
    await jobs.send('barcodes.submit', { batchId }, { tx });
    queued.push({ batch_id: batchId, checklist_id: group.checklistId, study_accession: group.studyAccession, barcodes: group.ids.length });
  }
  return queued;
}

/**
 * Schedules the profile's barcodes not yet at ENA (pending, or rejected before) for submission, by its owner or a
 * contributor: 409 without the ENA account's settings, or when none waits to be sent.
 */
export async function submitBarcodes(
  deps: { db: Db; jobs: JobQueue; config: Settings },
  user: UserRecord,
  profileId: string,
): Promise<BarcodeSubmitAnswer> {
  const { db, config } = deps;
  const profile = await barcodeProfile(db, user, profileId, 'contribute');
  if (!config.ENA_USERNAME || !config.ENA_PASSWORD) throw Conflict(ENA_SETTINGS_MISSING);
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: barcodes.id, checklistId: barcodes.checklistId, studyAccession: barcodes.studyAccession })
      .from(barcodes)
      .where(and(eq(barcodes.profileId, profile.id), inArray(barcodes.status, ['pending', 'rejected'])))
      .for('update');
    if (!rows.length) {
      throw Conflict(
        'No barcode of the profile waits to be sent: upload a barcoding sheet first (those sent or on their way are not sent again).',
      );
    }
    if (!config.WEBIN_CLI_JAR) {
      await tx
        .update(barcodes)
        .set({ status: 'waiting', batchId: null, error: WAITING_DETAIL, timeUpdated: sql`now()` })
        .where(inArray(barcodes.id, idsOf(rows)));
      return { submissions: [], waiting: rows.length, detail: WAITING_DETAIL };
    }
    return { submissions: await queueBatches(tx, deps.jobs, rows), waiting: 0, detail: null };
  });
}

const processingOf = (db: Db, batchId: string) =>
  db
    .select()
    .from(barcodes)
    .where(and(eq(barcodes.batchId, batchId), eq(barcodes.status, 'processing')))
    .orderBy(barcodes.entryNumber);

/** ENA's messages about one barcode: those naming its ENTRYNUMBER, else every message (a refusal of the whole file). */
function messagesFor(entryNumber: string, messages: readonly string[]): string {
  const own = messages.filter((m) => m.includes(entryNumber));
  return (own.length ? own : messages).join(' ');
}

async function reject(db: Db, rows: readonly Row[], message: (r: Row) => string): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of rows) {
      await tx
        .update(barcodes)
        .set({ status: 'rejected', error: message(r), timeUpdated: sql`now()` })
        .where(and(eq(barcodes.id, r.id), eq(barcodes.status, 'processing')));
    }
  });
}

/** The `barcodes.submit` job: one submission's barcodes, validated and submitted by Webin-CLI. */
export async function runBarcodeSubmission(deps: SubmitBarcodesDeps, batchId: string): Promise<void> {
  const { db, config } = deps;
  const rows = await processingOf(db, batchId);
  const first = rows[0];
  if (!first) return;
  if (!config.WEBIN_CLI_JAR) {
    // the setting went between the request and the run: they wait for it as if it had never been there
    await db
      .update(barcodes)
      .set({ status: 'waiting', batchId: null, error: WAITING_DETAIL, timeUpdated: sql`now()` })
      .where(and(eq(barcodes.batchId, batchId), eq(barcodes.status, 'processing')));
    return;
  }
  if (!config.ENA_USERNAME || !config.ENA_PASSWORD) {
    await reject(db, rows, () => ENA_SETTINGS_MISSING);
    return;
  }
  const cli = webinCliSettings(config);
  if (!cli.ready) throw new Error(`expected Webin-CLI's settings, missing ${cli.missing}`);
  const checklist = await findChecklist(db, first.checklistId);
  // one folder per submission, kept between runs: a -submit reuses what its -validate prepared
  const workDir = path.join(cli.workRoot, 'barcodes', batchId);
  await mkdir(workDir, { recursive: true });
  const tab = path.join(workDir, 'barcodes.tsv.gz');
  await writeFile(tab, barcodeTabFile(checklist, rows));
  const name = `barcodes-${batchId}`;
  const request = {
    context: 'sequence' as const,
    name,
    manifest: {
      STUDY: first.studyAccession,
      NAME: name,
      DESCRIPTION: `${rows.length} DNA barcodes (${checklist.name}) of Tree of Life specimens`,
      TAB: tab,
    },
  };
  const options = { ...cli.options, workDir };
  try {
    await runWebinCli(options, { ...request, action: 'validate' });
    const submitted = await runWebinCli(options, { ...request, action: 'submit' });
    await db
      .update(barcodes)
      .set({ status: 'accepted', accession: submitted.accession, error: null, timeUpdated: sql`now()` })
      .where(and(eq(barcodes.batchId, batchId), eq(barcodes.status, 'processing')));
    deps.logger.info({ batch: batchId, accession: submitted.accession, barcodes: rows.length }, 'barcodes submitted to ENA');
  } catch (err) {
    // Webin-CLI's own failure: the queue runs the job again, the last run's give-up says why
    if (isTransient(err)) throw err;
    if (err instanceof RepositoryRefused) {
      await reject(db, rows, (r) => messagesFor(r.entryNumber, err.messages));
    } else if (err instanceof RepositoryError) {
      // an answer it would give again (a submission without an accession): not sent twice
      await reject(db, rows, () => err.message);
    } else throw err;
  }
  await rm(workDir, { recursive: true, force: true });
}

/** The give-up: the last run failed, or its process died. The barcodes are rejected with why, to be submitted again. */
async function giveUpBarcodeSubmission(db: Db, batchId: string, reason: string): Promise<void> {
  const rows = await processingOf(db, batchId);
  await reject(db, rows, () => `Sending the barcodes to ENA could not be completed (${reason}); submit them again.`);
}

/** Waiting barcodes go on once Webin-CLI can be run: put in submissions and queued in one transaction. */
async function releaseWaiting(deps: SubmitBarcodesDeps): Promise<void> {
  const { config } = deps;
  if (!config.WEBIN_CLI_JAR || !config.ENA_USERNAME || !config.ENA_PASSWORD) return;
  await deps.db.transaction(async (tx) => {
    const waiting = await tx
      .select({
        id: barcodes.id,
        profileId: barcodes.profileId,
        checklistId: barcodes.checklistId,
        studyAccession: barcodes.studyAccession,
      })
      .from(barcodes)
      .where(and(eq(barcodes.status, 'waiting'), isNull(barcodes.batchId)))
      .for('update', { skipLocked: true });
    for (const profileId of new Set(waiting.map((w) => w.profileId))) {
      await queueBatches(
        tx,
        deps.jobs,
        waiting.filter((w) => w.profileId === profileId),
      );
    }
  });
}

export const submitBarcodesJob = jobSpec({
  name: 'barcodes.submit',
  label: 'DNA barcodes to ENA through Webin-CLI',
  data: SubmitData,
  // two runs of Webin-CLI, each allowed its 30 minutes
  expireSeconds: 90 * 60,
  run: (deps: SubmitBarcodesDeps, data) => runBarcodeSubmission(deps, data.batchId),
  giveUp: (deps, data, reason) => giveUpBarcodeSubmission(deps.db, data.batchId, reason),
  openWork: {
    key: 'batchId',
    open: sql`select distinct batch_id::text as id from barcodes where status = 'processing' and batch_id is not null`,
  },
  async reopen(tx, deps, data) {
    const reopened = await tx
      .update(barcodes)
      .set({ status: 'processing', error: SENDING_DETAIL, timeUpdated: sql`now()` })
      .where(and(eq(barcodes.batchId, data.batchId), eq(barcodes.status, 'rejected')))
      .returning({ id: barcodes.id });
    if (!reopened.length) throw Conflict('None of the submission’s barcodes is rejected any more; they were uploaded or sent again since.');
    await deps.jobs.send('barcodes.submit', { batchId: data.batchId }, { tx });
    return `${reopened.length} barcodes`;
  },
  recover: releaseWaiting,
});
