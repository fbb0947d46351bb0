import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deadLetters, validationReports } from '@/db/schema';
import { RUNS_PER_JOB } from '@/lib/jobs/queue';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { toXlsx } from './fixtures/manifests/workbook';
import { createProfile, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

// no taxonomy option: every look-up fails, as when ENA's taxonomy service is down; the real queue runs the job
let h: Harness;
beforeAll(async () => {
  h = await createHarness({}, { workers: true, retryDelaySeconds: 0 });
}, 60_000);
afterAll(() => h.close());

describe('the validation job when ENA taxonomy is down', () => {
  it('runs as often as the queue allows, then fails the report with the reason and lists it for admins: every report ends', async () => {
    const { key } = await h.user({ memberOf: ['dtol'] });
    const profileId = await createProfile(h, key, { title: 'Outage', description: '', type: 'dtol' });
    const dtol = currentDefinition('dtol');
    const fd = new FormData();
    fd.set('profile_id', profileId);
    fd.set(
      'file',
      new File(
        [
          new Uint8Array(
            await toXlsx(
              dtol.fields.map((f) => f.name),
              validRows(dtol, 2),
            ),
          ),
        ],
        'm.xlsx',
      ),
    );
    const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
    const { report_id } = (await res.json()) as { report_id: string };
    const stored = async () => (await h.database.db.select().from(validationReports).where(eq(validationReports.id, report_id)))[0]!;

    const last = await waitFor(stored, (r) => r.status === 'failed', 'the report to fail', 600);
    expect(last.attempts).toBe(RUNS_PER_JOB);
    expect(last.failure).toMatch(/taxonomy service/i);
    // the upload is kept, so the admin's retry can run it again
    expect(last.upload).not.toBeNull();
    const [letter] = await h.database.db.select().from(deadLetters).where(eq(deadLetters.name, 'manifest.validate'));
    expect(letter).toMatchObject({ data: { reportId: report_id }, attempts: RUNS_PER_JOB });
    expect(letter!.reason).toMatch(/taxonomy service/i);
    // a redelivered job finds nothing left to do
    await h.jobs['manifest.validate']({ reportId: report_id });
    expect((await stored()).status).toBe('failed');
  }, 90_000);
});
