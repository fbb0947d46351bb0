import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationReports } from '@/db/schema';
import { currentDefinition, TaxonomyUnavailableError } from '@/lib/manifests';
import { VALIDATION_MAX_ATTEMPTS } from '@/lib/reports/reports';
import { validRows } from './fixtures/manifests/generate';
import { toXlsx } from './fixtures/manifests/workbook';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

// no taxonomy option: every look-up fails, as when ENA's taxonomy service is down
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(() => h.close());

describe('the validation job when ENA taxonomy is down', () => {
  it('keeps the report pending for the queue to retry, then fails it with the reason: every report ends', async () => {
    const { key } = await h.user({ memberOf: ['dtol'] });
    const profileId = await createProfile(h, key, { title: 'Outage', description: '', type: 'dtol' });
    const dtol = currentDefinition('dtol');
    const fd = new FormData();
    fd.set('profile_id', profileId);
    fd.set('file', new File([new Uint8Array(await toXlsx(dtol.fields.map((f) => f.name), validRows(dtol, 2)))], 'm.xlsx'));
    const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
    const { report_id } = (await res.json()) as { report_id: string };
    const stored = async () => (await h.database.db.select().from(validationReports).where(eq(validationReports.id, report_id)))[0]!;

    for (let run = 1; run < VALIDATION_MAX_ATTEMPTS; run++) {
      await expect(h.jobs['manifest.validate']({ reportId: report_id })).rejects.toBeInstanceOf(TaxonomyUnavailableError);
      expect(await stored()).toMatchObject({ status: 'pending', attempts: run });
    }
    await h.jobs['manifest.validate']({ reportId: report_id });
    const last = await stored();
    expect(last).toMatchObject({ status: 'failed', attempts: VALIDATION_MAX_ATTEMPTS, upload: null });
    expect(last.failure).toMatch(/taxonomy service/i);
    // a redelivered job finds nothing left to do
    await h.jobs['manifest.validate']({ reportId: report_id });
    expect((await stored()).status).toBe('failed');
  });
});
