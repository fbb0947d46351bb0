import { inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { samples } from '@/db/schema';
import { jobSpec } from '@/lib/jobs/spec';
import { openSubmissionsOf, type RegistrationQueue, registrableColumns, routeApprovedSamples, tolidFallback } from './registration';

/**
 * The `registrations.sweep` job: approved samples sent on once what they waited for is over (a Webin account, a
 * ToLID, an outage), and approved samples no registration holds (lib/samples/registration.ts routes them).
 */

// samples taken per sweep, so one sweep stays one short transaction
const SWEEP_BATCH = 2_000;

/**
 * The scheduled sweep (and the first thing a worker does on start): samples that waited for a Webin account once
 * there is one, samples whose ToLID or outage wait is over, and approved samples that no registration holds.
 * Returns how many samples it sent on.
 */
export async function sweepRegistrations(db: Db, q: RegistrationQueue): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select(registrableColumns)
      .from(samples)
      .where(
        sql`(${samples.status} = 'processing' and (${samples.nextAttemptAt} is null or ${samples.nextAttemptAt} <= now()))
          or (${samples.status} = 'awaiting_tolid' and ${samples.nextAttemptAt} <= now())
          or (${samples.status} = 'awaiting_ena' and ${q.enaConfigured})`,
      )
      .orderBy(samples.timeUpdated)
      .limit(SWEEP_BATCH)
      .for('update', { skipLocked: true });
    if (!due.length) return 0;
    const inFlight = await openSubmissionsOf(tx, idsOf(due));
    const toRoute = due.filter((r) => !inFlight.has(r.id) && r.status !== 'awaiting_tolid');
    const tolidDue = due.filter((r) => r.status === 'awaiting_tolid');
    if (tolidDue.length) {
      await tx
        .update(samples)
        .set({ nextAttemptAt: tolidFallback() })
        .where(inArray(samples.id, idsOf(tolidDue)));
      await q.jobs.send('tolids.request', { sampleIds: tolidDue.map((r) => r.id) }, { tx });
    }
    await routeApprovedSamples(tx, q, toRoute, null);
    return toRoute.length + tolidDue.length;
  });
}

const RegistrationsSweepData = z.strictObject({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'registrations.sweep': z.infer<typeof RegistrationsSweepData>;
  }
}

/** `registrations.sweep`, every minute: approved samples that are due to be sent on. */
export const registrationsSweepJob = jobSpec({
  name: 'registrations.sweep',
  label: 'Sending approved samples on',
  data: RegistrationsSweepData,
  expireSeconds: 10 * 60,
  schedule: '* * * * *',
  runAtStart: true,
  quiet: true,
  async run(deps: { db: Db; logger: Logger; registration: RegistrationQueue }) {
    const sent = await sweepRegistrations(deps.db, deps.registration);
    if (sent) deps.logger.info({ samples: sent }, 'registration sweep sent samples on');
  },
});
