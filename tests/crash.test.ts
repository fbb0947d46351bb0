import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SchemaName } from '@/lib/checklists/contract';
import type { CrashPoint } from '@/lib/crash-points';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { bytesOf, definition, studiesApi } from './fixtures/studies/api';
import { withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { waitFor } from './support/flows';
import { createHarness, freshTestDatabase, type Harness } from './support/harness';
import { resumeAfterCrash } from './support/registration-resume';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { type ServiceProcess, serviceDataDir, startService } from './support/service-process';

/**
 * The service as a process, killed with SIGKILL at a chosen point (RMB_PAUSE_AT, lib/crash-points.ts) and started
 * again on the same database and storage: what was being written is all there or not at all, every sample, study and
 * file reaches the repository exactly once, nothing stays processing, and the user's retry works.
 */

const ADMIN = { username: 'crash-admin', password: 'crash-admin-password' };
// public samples the ENA stand-in knows (tests/support/repository-server/ena-samples.ts)
const PUBLIC_SAMPLES = [
  { accession: 'SAMEA12907823', taxonId: '8036', scientificName: 'Salvelinus alpinus' },
  { accession: 'SAMEA7524530', taxonId: '9606', scientificName: 'Homo sapiens' },
];

let server: RepositoryServer;
let ref: Harness;

beforeAll(async () => {
  const taxa = buildTaxonRecords();
  server = await startRepositoryServer({ taxa: taxa.records });
  // definitions of checklists, read as the service reads them
  ref = await createHarness();
}, 120_000);
afterAll(async () => {
  await ref?.close();
  await server?.close();
});

interface Run {
  start(pauseAt?: CrashPoint): Promise<ServiceProcess>;
  /** the running process, as a harness the fixtures can call */
  client(): Harness;
  key(): string;
  /** kill -9: the process started next finds out by itself that this one is gone and takes over its jobs */
  crash(): Promise<void>;
  cleanup(): Promise<void>;
}

async function scenario(): Promise<Run> {
  const db = await freshTestDatabase();
  const dataDir = await serviceDataDir('rmb-crash-', db.url ? undefined : inject('pgliteTemplate'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(db.url && { DATABASE_URL: db.url }),
    NEXTAUTH_SECRET: 'crash-test-secret',
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    ...server.enaSettings,
    ENA_FTP_URL: server.ftpUrl,
    ZENODO_URL: server.zenodoUrl,
    ZENODO_TOKEN: server.credentials.zenodo.token,
    TOLID_URL: 'http://127.0.0.1:9/tolid',
  };
  let svc: ServiceProcess | null = null;
  let key = '';
  // whichever process runs now: a client made before a crash talks to the restarted one
  const client = () =>
    ({
      config: {
        get baseUrl() {
          return `http://localhost:${new URL(svc!.url).port}`;
        },
      },
      request(p: string, init: RequestInit & { key?: string } = {}) {
        const { key: k, ...rest } = init;
        const headers = new Headers(rest.headers);
        if (k) headers.set('authorization', `token ${k}`);
        return fetch(svc!.url + p, { ...rest, headers });
      },
    }) as unknown as Harness;
  return {
    async start(pauseAt) {
      svc = await startService({ ...env, ...(pauseAt && { RMB_PAUSE_AT: pauseAt }) });
      if (!key) {
        const res = await fetch(`${svc.url}/api/apiKey`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ADMIN),
        });
        key = ((await res.json()) as { token: string }).token;
      }
      return svc;
    },
    client,
    key: () => key,
    async crash() {
      await svc!.kill();
    },
    async cleanup() {
      await svc?.stop().catch(() => undefined);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const json = { 'content-type': 'application/json' };
const call = async <T>(h: Harness, key: string, p: string, init: RequestInit = {}): Promise<{ status: number; body: T }> => {
  const res = await h.request(p, { ...init, key } as RequestInit);
  return { status: res.status, body: (await res.json().catch(() => null)) as T };
};

/** A DTOL profile and a validated, complete report of `n` rows on the running service. */
async function validatedManifest(run: Run, n: number): Promise<{ profileId: string; reportId: string }> {
  const h = run.client();
  const profile = await call<{ id: string }>(h, run.key(), '/api/profiles', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ title: `Crash ${Date.now()}`, description: '', type: 'dtol' }),
  });
  const dtol = currentDefinition('dtol');
  const fd = new FormData();
  fd.set('profile_id', profile.body.id);
  fd.set(
    'file',
    new File(
      [
        new Uint8Array(
          await toXlsx(
            dtol.fields.map((f) => f.name),
            validRows(dtol, n),
            { typed: true },
          ),
        ),
      ],
      'crash.xlsx',
    ),
  );
  const { body } = await call<{ report_id: string }>(h, run.key(), '/api/manifest/validate', { method: 'POST', body: fd });
  const report = await waitFor(
    async () => (await call<{ status: string; errors: unknown[] }>(h, run.key(), `/api/manifest/validate/report/${body.report_id}`)).body,
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation',
    600,
  );
  expect(report).toMatchObject({ status: 'complete', errors: [] });
  return { profileId: profile.body.id, reportId: body.report_id };
}

interface BrowsedSample {
  svc_id: string;
  status: string;
  biosampleAccession: string;
}
/** The scenario's own database holds only its samples. */
const samples = async (run: Run) =>
  (await call<{ number_found: number; data: BrowsedSample[] }>(run.client(), run.key(), '/api/samples/browse?project=dtol&limit=100')).body;

const addsOf = (alias: string) =>
  server.ena.submissions.filter((s) => s.actions.includes('ADD') && s.objects.some((o) => o.alias === alias)).length;

describe('kill -9 during a manifest confirmation', () => {
  it('leaves no sample behind, and the confirmation sent again creates them all', async () => {
    const run = await scenario();
    try {
      const first = await run.start('confirm:samples-written');
      const { reportId } = await validatedManifest(run, 3);
      const confirm = () =>
        run.client().request('/api/manifest/validate/confirm', {
          method: 'POST',
          key: run.key(),
          headers: json,
          body: JSON.stringify({ validation_report_id: reportId }),
        } as RequestInit);
      const interrupted = confirm().catch((err: unknown) => err);
      await first.waitForLine(/RMB_PAUSED confirm:samples-written/);
      await run.crash();
      expect(await interrupted).toBeInstanceOf(Error);

      await run.start();
      expect((await samples(run)).number_found).toBe(0);
      const again = await confirm();
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ created: 3, updated: 0 });
      expect((await samples(run)).number_found).toBe(3);
    } finally {
      await run.cleanup();
    }
  }, 240_000);
});

describe('kill -9 during a sample registration, after ENA answered and before the answer was kept', () => {
  it('resumes: the specimens sent again are refused by name and read back, one accession per sample, nothing left processing', async () => {
    const run = await scenario();
    try {
      const first = await run.start('registration:ena-answered');
      const { reportId } = await validatedManifest(run, 3);
      const h = run.client();
      expect(
        (
          await call(h, run.key(), '/api/manifest/validate/confirm', {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ validation_report_id: reportId }),
          })
        ).status,
      ).toBe(200);
      const ids = (await samples(run)).data.map((s) => s.svc_id);
      const decided = await call(h, run.key(), '/api/sample/decision', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
      });
      expect(decided.status).toBe(200);
      // the specimens go first: the process dies after ENA added them, before it kept the answer
      await first.waitForLine(/RMB_PAUSED registration:ena-answered/);
      await run.crash();
      const addedBefore = server.ena.submissions.length;

      await run.start();
      const done = await waitFor(
        () => samples(run),
        (r) => r.data.every((s) => s.status === 'accepted'),
        'the registration to resume',
        1200,
      );
      for (const s of done.data) {
        expect(s.biosampleAccession).toMatch(/^SAMEA/);
        expect(addsOf(s.svc_id)).toBe(1);
      }
      // the specimens were found again (their ADD refused whole, their accessions read back), not added twice
      const aliases = server.ena.submissions
        .filter((s) => s.success && s.actions.includes('ADD'))
        .flatMap((s) => s.objects.map((o) => o.alias));
      expect(new Set(aliases).size).toBe(aliases.length);
      expect(server.ena.submissions.length).toBeGreaterThan(addedBefore);
      const subs = await call<{ data: { status: string; kind: string }[] }>(h, run.key(), '/api/submissions');
      expect(subs.body.data.filter((s) => s.kind === 'samples').map((s) => s.status)).toEqual(['accepted']);
    } finally {
      await run.cleanup();
    }
  }, 300_000);
});

// 250 samples: two whole lots of 100 and a part one; `npm run bench` (bench/registration-resume.ts) runs the same
// scenario at 2,000 and prints its time and Webin calls
describe('kill -9 during the ADD of a 250-sample registration, after ENA answered and before the answer was kept', () => {
  it('resumes in lots: one refused ADD and a sample report per 100 aliases, 250 distinct accessions, each sample added once', async () => {
    const db = await freshTestDatabase();
    try {
      const n = 250;
      const r = await resumeAfterCrash(server, {
        samples: n,
        ...(db.url ? { databaseUrl: db.url } : { pgliteTemplate: inject('pgliteTemplate') }),
        timeoutMs: 780_000,
      });
      expect(r.status).toBe('accepted');
      expect(r.accepted).toBe(n);
      expect(r.distinctBiosamples).toBe(n);
      expect(new Set(r.appliedAddsPerSample)).toEqual(new Set([1]));
      // Webin refuses an ADD of aliases it holds, naming each with its accession; the reports service answers 100
      // accessions a call: one ADD (refused, creating nothing) and ⌈n / 100⌉ reports, where a RECEIPT a sample made n
      expect(r.submissionCalls).toEqual([{ actions: ['ADD', 'RELEASE'], success: false, objects: n }]);
      expect(r.reportCalls).toEqual([100, 100, 50]);
      expect(r.webinCalls).toBe(1 + 3);
      // the answers before the crash and after it, each a row: the specimens' ADD and the refused samples' ADD
      expect(r.receipts).toBe(2);
    } finally {
      await db.drop();
    }
  }, 900_000);
});

/** A single-cell study with data files, uploaded to a biodata profile of the running service. */
async function uploadedStudy(
  run: Run,
  studyId: string,
  schema: SchemaName = 'svc_single_cell',
  checklist = 'version_dwc_sc_rnaseq',
): Promise<{ profileId: string; files: Map<string, Buffer> }> {
  const h = run.client();
  const profile = await call<{ id: string }>(h, run.key(), '/api/profiles', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ title: `Crash study ${studyId}`, description: '', type: 'biodata' }),
  });
  const api = studiesApi(h, run.key(), profile.body.id);
  const def = await definition(ref, schema, checklist);
  const template = await bytesOf(await api.template(schema, checklist));
  const made = await withDataFiles(h, run.key(), profile.body.id, def, fixtureComponents(def, { studyId, samples: PUBLIC_SAMPLES }));
  const res = await api.upload(schema, checklist, await workbookBytes(await fillTemplate(template, def, made.components)));
  expect(res.status, await res.clone().text()).toBe(200);
  return { profileId: profile.body.id, files: made.files };
}

const submitPath = (profileId: string, studyId: string, repository: string, schema: SchemaName = 'svc_single_cell') =>
  `/api/profiles/${profileId}/schema/${schema}/studies/${studyId}/action/submit?repository=${repository}`;

describe('kill -9 during a study submission to ENA: after the project, after the files were staged, after the runs were added', () => {
  it('resumes each time: the project, each file and each run exactly once, the submission accepted', async () => {
    const run = await scenario();
    const studyId = `CRASHENA${Date.now() % 100000}`;
    const mine = (alias: string) => alias.includes(studyId);
    try {
      let svc = await run.start('study-ena:project-added');
      const { profileId, files } = await uploadedStudy(run, studyId);
      const h = run.client();
      expect((await call(h, run.key(), submitPath(profileId, studyId, 'ena'), { method: 'POST' })).status).toBe(202);
      for (const next of ['study-ena:files-staged', 'study-ena:runs-added', undefined] as const) {
        await svc.waitForLine(/RMB_PAUSED study-ena:/);
        await run.crash();
        svc = await run.start(next);
      }

      const state = await waitFor(
        async () => (await call<{ status: string }>(h, run.key(), submitPath(profileId, studyId, 'ena'))).body,
        (s) => s.status === 'accepted' || s.status === 'rejected',
        'the ENA submission to resume',
        1200,
      );
      expect(state.status).toBe('accepted');
      const added = server.ena.submissions.filter((s) => s.success && s.actions.includes('ADD')).flatMap((s) => s.objects);
      expect(added.filter((o) => o.type === 'PROJECT' && mine(o.alias))).toHaveLength(1);
      // one RUN and one EXPERIMENT per file row, each added once: the run ADD answered before the crash was found
      // again through RECEIPT
      const runs = added.filter((o) => o.type === 'RUN' && mine(o.alias)).map((o) => o.alias);
      const experiments = added.filter((o) => o.type === 'EXPERIMENT' && mine(o.alias)).map((o) => o.alias);
      expect(runs.length).toBeGreaterThan(0);
      expect(new Set(runs).size).toBe(runs.length);
      expect(new Set(experiments).size).toBe(experiments.length);
      expect(experiments).toHaveLength(runs.length);
      const accession = await call<{ run_accession_ena?: string; experiment_accession_ena?: string }[]>(
        h,
        run.key(),
        `/api/profiles/${profileId}/schema/svc_single_cell/studies/${studyId}/action/accession?repository=ena`,
        { method: 'POST' },
      );
      expect(accession.status).toBe(200);
      const rows = accession.body.filter((r) => r.run_accession_ena !== undefined);
      expect(rows).toHaveLength(runs.length);
      for (const r of rows) {
        expect(r.run_accession_ena).toMatch(/^ERR\d+$/);
        expect(r.experiment_accession_ena).toMatch(/^ERX\d+$/);
      }
      // each read file staged once, whole: the restart after staging did not send them again
      const staged = server.uploadArea.stored.filter((s) => s.path.includes(profileId)).map((s) => s.path);
      expect(staged.length).toBeGreaterThan(0);
      expect(new Set(staged).size).toBe(staged.length);
      for (const p of staged) {
        const name = p.slice(p.lastIndexOf('/') + 1);
        const area = await server.uploadArea.fileOf(server.credentials.ena.username, `${profileId}/${name}`);
        expect(area?.md5, name).toBe(createHash('md5').update(files.get(name)!).digest('hex'));
      }
    } finally {
      await run.cleanup();
    }
  }, 420_000);
});

describe('kill -9 after ENA answered the ANALYSIS of a sequence annotation, before the answer was kept', () => {
  it('resumes through RECEIPT: each annotation one ANALYSIS, the submission accepted with its accessions', async () => {
    const run = await scenario();
    const studyId = `CRASHANN${Date.now() % 100000}`;
    const mine = (alias: string) => alias.includes(studyId);
    try {
      let svc = await run.start('study-ena:analyses-added');
      const { profileId } = await uploadedStudy(run, studyId, 'svc_read', 'version_dwc');
      const h = run.client();
      expect((await call(h, run.key(), submitPath(profileId, studyId, 'ena', 'svc_read'), { method: 'POST' })).status).toBe(202);
      await svc.waitForLine(/RMB_PAUSED study-ena:analyses-added/);
      await run.crash();
      svc = await run.start();
      const state = await waitFor(
        async () => (await call<{ status: string }>(h, run.key(), submitPath(profileId, studyId, 'ena', 'svc_read'))).body,
        (s) => s.status === 'accepted' || s.status === 'rejected',
        'the ENA submission to resume',
        1200,
      );
      expect(state, JSON.stringify(state)).toMatchObject({ status: 'accepted' });
      const added = server.ena.submissions.filter((s) => s.success && s.actions.includes('ADD')).flatMap((s) => s.objects);
      const analyses = added.filter((o) => o.type === 'ANALYSIS' && mine(o.alias)).map((o) => o.alias);
      expect(analyses).toHaveLength(2);
      expect(new Set(analyses).size).toBe(2);
      // the resumed run asked for the ANALYSIS it had sent, rather than adding it again
      expect(server.requests.some((r) => r.service === 'ena' && r.body.includes('<RECEIPT') && mine(r.body))).toBe(true);
    } finally {
      await run.cleanup();
    }
  }, 420_000);
});

describe('kill -9 during a Zenodo upload, after the first file', () => {
  it('resumes on the same deposition: each file there once with its checksum', async () => {
    const run = await scenario();
    const studyId = `CRASHZEN${Date.now() % 100000}`;
    try {
      const first = await run.start('zenodo:file-uploaded');
      const { profileId, files } = await uploadedStudy(run, studyId);
      const h = run.client();
      const depositionsBefore = server.zenodo.depositions.size;
      expect((await call(h, run.key(), submitPath(profileId, studyId, 'zenodo'), { method: 'POST' })).status).toBe(202);
      await first.waitForLine(/RMB_PAUSED zenodo:file-uploaded/);
      await run.crash();

      await run.start();
      const state = await waitFor(
        async () => (await call<{ status: string }>(h, run.key(), submitPath(profileId, studyId, 'zenodo'))).body,
        (s) => s.status === 'accepted' || s.status === 'rejected',
        'the Zenodo submission to resume',
        1200,
      );
      expect(state.status).toBe('accepted');
      expect(server.zenodo.depositions.size).toBe(depositionsBefore + 1);
      const deposition = [...server.zenodo.depositions.values()].at(-1)!;
      const names = [...deposition.files.values()].map((f) => f.key);
      expect(new Set(names).size).toBe(names.length);
      for (const name of files.keys()) expect(names).toContain(name);
    } finally {
      await run.cleanup();
    }
  }, 300_000);
});
