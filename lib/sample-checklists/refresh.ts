import { eq, max, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { sampleChecklists, serviceChecks } from '@/db/schema';
import type { Config } from '@/lib/config';
import { jobSpec } from '@/lib/jobs/spec';
import { fetchEnaChecklists } from '@/lib/repositories/ena/checklists';
import { RepositoryError } from '@/lib/repositories/errors';
import type { ServiceCheck } from '@/lib/samples/contract';
import { CHECKLIST_KINDS, type SampleChecklist } from './contract';
import { storeChecklists } from './store';

/**
 * ENA's checklists kept current: read from its reports service when a worker starts and every day after, each read
 * replacing the copies of the same ids. While ENA cannot be reached the last copies read are kept and used, and
 * /api/health says since when the copy is old and why (service_checks `ena_checklists`).
 */

export const CHECKLISTS_SERVICE = 'ena_checklists';

export interface RefreshDeps {
  db: Db;
  config: Pick<Config, 'ENA_WEBIN_URL' | 'ENA_USERNAME' | 'ENA_PASSWORD'>;
  logger: Logger;
  /** the reports service's plumbing, for tests (fetch, retries) */
  http?: { retries?: number; retryDelayMs?: number; timeoutMs?: number };
}

/** Reads ENA's sample and sequence checklists and keeps them; an unreachable ENA keeps the last copy and is said so. */
export async function refreshEnaChecklists(deps: RefreshDeps): Promise<{ ok: boolean; detail: string }> {
  const { db, config, logger } = deps;
  const read: SampleChecklist[] = [];
  let outcome: { ok: boolean; detail: string };
  try {
    for (const kind of CHECKLIST_KINDS) {
      read.push(
        ...(await fetchEnaChecklists(
          { baseUrl: config.ENA_WEBIN_URL, username: config.ENA_USERNAME, password: config.ENA_PASSWORD, logger, ...deps.http },
          kind,
        )),
      );
    }
    await storeChecklists(db, read);
    const counts = CHECKLIST_KINDS.map((k) => `${read.filter((c) => c.kind === k).length} ${k}`).join(' and ');
    outcome = { ok: true, detail: `Read ${counts} checklists from ENA's reports service.` };
  } catch (err) {
    if (!(err instanceof RepositoryError)) throw err;
    const kept = await lastRead(db);
    outcome = {
      ok: false,
      detail: `ENA's checklists could not be read (${err.message}); ${kept ? `the copy read ${kept.toISOString()} is used` : 'only COPO’s checklists are known until it answers'}.`,
    };
    logger.warn({ service: CHECKLISTS_SERVICE, detail: outcome.detail }, 'checklists: ENA did not answer');
  }
  await db
    .insert(serviceChecks)
    .values({ service: CHECKLISTS_SERVICE, ...outcome, checkedAt: sql`now()` })
    .onConflictDoUpdate({ target: serviceChecks.service, set: { ok: outcome.ok, detail: outcome.detail, checkedAt: sql`now()` } });
  return outcome;
}

async function lastRead(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(sampleChecklists.refreshedAt) })
    .from(sampleChecklists)
    .where(eq(sampleChecklists.source, 'ena'));
  return row?.at ?? null;
}

/** The last refresh, for /api/health: never a live call. */
export async function checklistsCheck(db: Db): Promise<ServiceCheck> {
  const [row] = await db.select().from(serviceChecks).where(eq(serviceChecks.service, CHECKLISTS_SERVICE));
  if (!row) return { ok: null, detail: 'ENA’s checklists have not been read yet.', checked_at: null };
  return { ok: row.ok, detail: row.detail, checked_at: row.checkedAt.toISOString() };
}

const RefreshData = z.strictObject({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'checklists.refresh': z.infer<typeof RefreshData>;
  }
}

/** `checklists.refresh`: when a worker starts, then daily. An unreachable ENA ends the job normally, the last copy kept. */
export const refreshChecklistsJob = jobSpec({
  name: 'checklists.refresh',
  label: 'ENA’s sample and sequence checklists read again',
  data: RefreshData,
  expireSeconds: 15 * 60,
  schedule: '17 4 * * *',
  runAtStart: true,
  async run(deps: RefreshDeps) {
    const outcome = await refreshEnaChecklists(deps);
    if (outcome.ok) deps.logger.info({ service: CHECKLISTS_SERVICE }, outcome.detail);
  },
});
