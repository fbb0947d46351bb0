import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNS_PER_JOB } from '@/lib/jobs/queue';
import type { ZenodoClient } from '@/lib/repositories/zenodo';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * A study submission whose job fails on every run, with the real queue running it: after the queue's last run the
 * submission is failed with a reason the user can read, it is on the admins' dead-letter list, and submitting the
 * study again is accepted at once (a failed submission never blocks a new one).
 */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';
let h: Harness;
let broken = true;
let calls = 0;

beforeAll(async () => {
  h = await createHarness(
    { ZENODO_URL: 'http://127.0.0.1:9/zenodo', ZENODO_TOKEN: 'unused' },
    {
      workers: true,
      retryDelaySeconds: 0,
      jobDeps: {
        // a client that fails as a bug of our own would: not a repository's answer, so the queue runs it again
        zenodo: () => {
          calls += 1;
          if (broken) throw new TypeError('Cannot read properties of undefined (reading "links")');
          return {} as ZenodoClient;
        },
      },
    },
  );
}, 60_000);
afterAll(() => h.close());

describe('a study submission whose job fails every run', () => {
  it('ends failed after the last run, is listed for admins, and a new submit is then accepted', async () => {
    const { key } = await h.user();
    const adminKey = (await h.user({ isAdmin: true })).key;
    const profileId = await createProfile(h, key, 'Always failing');
    await registerSamples(h, profileId);
    const api = studiesApi(h, key, profileId);
    const def = await definition(h, SCHEMA, CHECKLIST);
    const made = await withDataFiles(h, key, profileId, def, fixtureComponents(def, { studyId: 'EXHAUST1', samples: SAMPLES }));
    const uploaded = await api.upload(
      SCHEMA,
      CHECKLIST,
      await workbookBytes(await fillTemplate(await bytesOf(await api.template(SCHEMA, CHECKLIST)), def, made.components)),
    );
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);

    const submit = () =>
      h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/EXHAUST1/action/submit?repository=zenodo`, { method: 'POST', key });
    const first = await submit();
    expect(first.status, await first.clone().text()).toBe(202);
    const { submission_id } = (await first.json()) as { submission_id: string };

    const failed = await waitFor(
      async () =>
        (await (await h.request(`/api/submissions/${submission_id}`, { key })).json()) as { status: string; error: string | null },
      (s) => s.status === 'failed',
      'the submission to fail',
      600,
    );
    expect(calls).toBe(RUNS_PER_JOB);
    expect(failed.error).toMatch(/could not be completed \(.*reading "links".*\); submit it again/);
    const letters = (await (await h.request('/api/admin/jobs?limit=50', { key: adminKey })).json()) as {
      data: { job: string; data: Record<string, string> }[];
    };
    expect(letters.data.some((d) => d.job === 'study.submit' && d.data.submissionId === submission_id)).toBe(true);

    // the study is not stuck: a new submission is accepted at once, and this time it runs
    broken = false;
    const again = await submit();
    expect(again.status, await again.clone().text()).toBe(202);
    expect(((await again.json()) as { submission_id: string }).submission_id).not.toBe(submission_id);
  }, 120_000);
});
