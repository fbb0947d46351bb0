import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { biodataSamples, submissions } from '@/db/schema';
import { Conflict, Invalid } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { getProfile } from '@/lib/profiles/profiles';
import type { Registration } from '@/lib/samples/contract';
import type { UserRecord } from '@/lib/users/users';
import { queueBiodataRegistration } from './queue';

/**
 * A researcher's request to register biodata samples at ENA (POST /api/sample/register): who may, which samples, and
 * the release date asked for. The registration itself is the `biodata-samples.register` job
 * (lib/biodata-samples/registration-job.ts).
 */

type Sample = typeof biodataSamples.$inferSelect;

const ENA_SETTINGS_MISSING = 'ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The latest release date ENA takes: two years from today. */
const latestRelease = (now: Date) =>
  new Date(Date.UTC(now.getUTCFullYear() + 2, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);

/** Checks a release date a researcher asks for: a day after today and within ENA's two years. */
export function checkReleaseDate(value: string, now = new Date()): string {
  const today = now.toISOString().slice(0, 10);
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw Invalid(`release_date ${value} is not a date: give YYYY-MM-DD.`, [{ path: 'release_date', message: 'a date, YYYY-MM-DD' }]);
  }
  if (value <= today) {
    throw Invalid(`release_date ${value} is not after today: leave it out to make the samples public once registered.`, [
      { path: 'release_date', message: 'a day after today' },
    ]);
  }
  if (value > latestRelease(now)) {
    throw Invalid(`release_date ${value} is more than two years ahead, which ENA does not hold samples for.`, [
      { path: 'release_date', message: 'at most two years ahead' },
    ]);
  }
  return value;
}

/**
 * Queues the registration of a caller's confirmed (or refused) biodata samples, one per profile. Samples already on
 * their way are answered with their registration (`created: false`); registered ones are refused (409) naming them.
 */
export async function registerBiodataSamples(
  deps: { db: Db; jobs: JobQueue; config: { ENA_USERNAME?: string; ENA_PASSWORD?: string } },
  user: UserRecord,
  rows: Sample[],
  releaseDate?: string,
): Promise<Registration[]> {
  if (!deps.config.ENA_USERNAME || !deps.config.ENA_PASSWORD) throw Conflict(ENA_SETTINGS_MISSING);
  const holdUntil = releaseDate === undefined ? null : checkReleaseDate(releaseDate);
  const byProfile = new Map<string, Sample[]>();
  for (const r of rows) byProfile.set(r.profileId, [...(byProfile.get(r.profileId) ?? []), r]);
  // who may add to the profile registers its samples; a viewer is told so, anyone else sees no such sample
  for (const profileId of byProfile.keys()) await getProfile(deps.db, user, profileId, 'contribute');
  const registered = rows.filter((r) => r.status === 'accepted');
  if (registered.length) {
    throw Conflict(
      `Already registered at ENA: ${registered.map((r) => `${r.alias} (${r.biosampleAccession})`).join(', ')}. A change to a registered sample is sent when its sheet is confirmed.`,
    );
  }
  return deps.db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(biodataSamples)
      .where(inArray(biodataSamples.id, idsOf(rows)))
      .for('update');
    const answers: Registration[] = [];
    const sending = locked.filter((r) => r.status === 'processing');
    for (const sub of await openRegistrationsOf(tx, idsOf(sending))) answers.push({ ...sub, created: false });
    const waiting = new Map<string, string[]>();
    for (const r of locked.filter((x) => x.status === 'confirmed' || x.status === 'refused')) {
      waiting.set(r.profileId, [...(waiting.get(r.profileId) ?? []), r.id]);
    }
    for (const [profileId, sampleIds] of waiting) {
      answers.push(await queueBiodataRegistration(tx, deps.jobs, { profileId, sampleIds, userId: user.id, releaseDate: holdUntil }));
    }
    return answers;
  });
}

async function openRegistrationsOf(db: Db, ids: string[]): Promise<Omit<Registration, 'created'>[]> {
  if (!ids.length) return [];
  const open = await db
    .select({ id: submissions.id, sampleIds: submissions.sampleIds })
    .from(submissions)
    .where(
      and(
        eq(submissions.kind, 'biodata_samples'),
        sql`${submissions.status} in ('pending', 'processing')`,
        sql`${submissions.sampleIds} && ${sql.param(ids)}::text[]`,
      ),
    );
  return open.map((s) => ({ submission_id: s.id, samples: s.sampleIds.filter((id) => ids.includes(id)).length }));
}

/** The biodata samples among the ids given (the others may be Tree of Life samples). */
export const biodataSamplesIn = (db: Db, svcIds: string[]): Promise<Sample[]> =>
  db
    .select()
    .from(biodataSamples)
    .where(inArray(biodataSamples.id, svcIds.length ? svcIds : ['']));
