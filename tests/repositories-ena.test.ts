import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import {
  createEnaClient,
  createUploadArea,
  type EnaClient,
  EnaStillQueuedError,
  enaClientOptionsFromConfig,
  type ProjectSpec,
  type SampleSpec,
  tolSampleSpec,
  type WebinDocument,
  webinRoot,
} from '@/lib/repositories/ena';
import { RepositoryHttpError, RepositoryUnavailableError } from '@/lib/repositories/errors';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { DTOL_ENA_MAPPING, dtolRow } from './support/repository-server/fixtures';
import { captureLogger, FAST } from './support/repository-server/log';

let server: RepositoryServer;
let ena: EnaClient;
let n = 0;
const unique = (p: string) => `${p}-${++n}-${Math.random().toString(16).slice(2, 8)}`;

const client = (extra: Partial<Parameters<typeof createEnaClient>[0]> = {}) =>
  createEnaClient({
    baseUrl: server.enaUrl,
    username: server.credentials.ena.username,
    password: server.credentials.ena.password,
    logger: captureLogger().logger,
    centerName: 'EI',
    ...FAST,
    ...extra,
  });

const project = (alias = unique('study')): ProjectSpec => ({
  alias,
  title: 'Single-cell atlas of Aglais io',
  description: 'Single-cell RNA sequencing of the wings of Aglais io',
  name: 'atlas',
});
const sample = (alias = unique('svc')): SampleSpec =>
  tolSampleSpec({ alias, project: 'DTOL', fields: dtolRow(), tolid: 'ilAglIo1' }, DTOL_ENA_MAPPING);
const add = (doc: Omit<WebinDocument, 'submission'>): WebinDocument => ({ submission: { actions: [{ type: 'ADD' }] }, ...doc });
const READ = Buffer.from('@r1\nACGT\n+\nIIII\n');
const READ_MD5 = createHash('md5').update(READ).digest('hex');
const enaSubmissions = () => server.ena.submissions.filter((s) => s.actions.includes('ADD'));

beforeAll(async () => {
  server = await startRepositoryServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.faults.clear();
  Object.assign(server.ena.settings, { pollLinkShape: 'links', pendingPolls: 1, aliasErrorWording: 'new', pollLinkOrigin: undefined });
  ena = client();
});

describe('ENA Webin REST v2 client', () => {
  it('submits a project and samples synchronously and reads accessions by alias', async () => {
    const p = project();
    const s = sample();
    const receipt = await ena.submit(add({ projects: [p], samples: [s] }));
    expect(receipt).toMatchObject({ success: true, outcome: 'accepted', test: true });
    const proj = receipt.byAlias.PROJECT[p.alias];
    expect(proj?.accession).toMatch(/^PRJEB\d+$/);
    expect(proj?.studyAccession).toMatch(/^ERP\d+$/);
    expect(proj?.status).toBe('PRIVATE');
    expect(proj?.holdUntilDate).toMatch(/^\d{4}-\d{2}-\d{2}\+00:00$/);
    const smp = receipt.byAlias.SAMPLE[s.alias];
    expect(smp?.accession).toMatch(/^ERS\d+$/);
    expect(smp?.biosampleAccession).toMatch(/^SAMEA\d+$/);
    expect(receipt.submission?.accession).toMatch(/^ERA\d+$/);
    expect(receipt.actions).toEqual(['ADD']);
    expect(receipt.infos.some((i) => i.includes('TEST submission'))).toBe(true);

    // one multipart part named `file` holding a WEBIN document, Basic auth, to the v2 path
    const req = server.requests.filter((r) => r.service === 'ena').at(-1);
    expect(req).toMatchObject({ method: 'POST', path: '/ena/submit/webin-v2/submit', auth: 'basic', status: 200 });
    expect(req?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(req?.body).toContain('name="file"');
    expect(req?.body).toContain('<WEBIN>');
    expect(req?.body).toContain('center_name="EI"');
  });

  it('retries a 500 twice and the server records exactly one submission', async () => {
    const { logger, lines } = captureLogger();
    const c = client({ logger });
    const before = enaSubmissions().length;
    const s = sample();
    server.faults.fail(2, { service: 'ena', path: '/webin-v2/submit' });
    const receipt = await c.submit(add({ samples: [s] }));
    expect(receipt.outcome).toBe('accepted');
    expect(enaSubmissions().length - before).toBe(1);
    expect(server.ena.objects().filter((o) => o.alias === s.alias)).toHaveLength(1);
    expect(lines.filter((l) => l.msg === 'repository response').map((l) => l.status)).toEqual([500, 500, 200]);
  });

  it('does not retry a 401 and says so', async () => {
    const c = client({ password: 'wrong' });
    const before = server.requests.length;
    const err = await c.submit(add({ samples: [sample()] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryHttpError);
    expect(err).toMatchObject({ status: 401, service: 'ena' });
    expect(server.requests.length - before).toBe(1);
  });

  it('gives up on a hanging ENA as unavailable', async () => {
    server.faults.hang(3, { service: 'ena' });
    const err = await client({ submitTimeoutMs: 100 })
      .submit(add({ samples: [sample()] }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryUnavailableError);
    expect(err).toMatchObject({ timedOut: true, attempts: 3 });
  });

  it('recognises "already exists" after a lost answer, then recovers the accessions with RECEIPT', async () => {
    const s = sample();
    // the first attempt reaches ENA and is processed, but its answer comes after the client gave up
    // (times leave room for the stand-in's XML Schema validation, ~0.1–0.2 s a document)
    server.faults.hang(1, { service: 'ena', ms: 3000 });
    const receipt = await client({ submitTimeoutMs: 2500, retryDelayMs: 3000, maxRetryDelayMs: 3000 }).submit(add({ samples: [s] }));
    expect(receipt.success).toBe(false);
    expect(receipt.outcome).toBe('alias_exists');
    const stored = server.ena.objects().find((o) => o.alias === s.alias);
    expect(receipt.existing).toEqual([{ type: 'SAMPLE', alias: s.alias, accession: stored?.accession }]);
    expect(receipt.messages[0]).toMatchObject({ level: 'ERROR', kind: 'alias_exists', objectType: 'SAMPLE', alias: s.alias });

    const recovered = await ena.fetchReceipt(s.alias);
    expect(recovered.outcome).toBe('accepted');
    expect(recovered.byAlias.SAMPLE[s.alias]).toMatchObject({ accession: stored?.accession, biosampleAccession: stored?.extId?.accession });
  });

  it('refuses an ADD of samples it holds whole, naming each with its accession, and reports them by accession in lots of 100', async () => {
    const held = Array.from({ length: 3 }, () => sample());
    const first = await ena.submit(add({ samples: held }));
    expect(first.success).toBe(true);
    const fresh = sample();
    const objectsBefore = server.ena.objects().length;
    // Webin applies a document whole or not at all: the new sample beside the held ones is not created either
    const again = await ena.submit(add({ samples: [...held, fresh] }));
    expect(again).toMatchObject({ success: false, outcome: 'alias_exists' });
    expect(server.ena.objects()).toHaveLength(objectsBefore);
    expect(again.existing).toEqual(
      held.map((h) => ({ type: 'SAMPLE', alias: h.alias, accession: first.byAlias.SAMPLE[h.alias]!.accession })),
    );

    const accessions = again.existing.map((e) => e.accession!);
    const reported = await ena.samplesByAccession([...accessions, 'ERS000000']);
    expect(reported).toEqual(
      held.map((h) => ({
        type: 'SAMPLE',
        alias: h.alias,
        accession: first.byAlias.SAMPLE[h.alias]!.accession,
        biosampleAccession: first.byAlias.SAMPLE[h.alias]!.biosampleAccession,
        extIds: [{ accession: first.byAlias.SAMPLE[h.alias]!.biosampleAccession, type: 'biosample' }],
      })),
    );
    expect(server.ena.reports.at(-1)?.ids).toEqual([...accessions, 'ERS000000']);
    // the client asks in lots the stand-in answers, and the stand-in refuses a larger one
    await expect(ena.samplesByAccession(Array.from({ length: 101 }, (_, i) => `ERS${i}`))).rejects.toThrow(RangeError);
    const res = await fetch(`${server.enaUrl}/report/samples/xml/${Array.from({ length: 101 }, (_, i) => `ERS${i}`).join(',')}`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${server.credentials.ena.username}:${server.credentials.ena.password}`).toString('base64')}`,
      },
    });
    expect(res.status).toBe(400);
  });

  it('reads the old "already exists" wording, which has no accession', async () => {
    const p = project();
    await ena.submit(add({ projects: [p] }));
    server.ena.settings.aliasErrorWording = 'old';
    const again = await ena.submit(add({ projects: [p] }));
    expect(again.outcome).toBe('alias_exists');
    expect(again.existing).toEqual([{ type: 'PROJECT', alias: p.alias }]);
  });

  it('MODIFY updates an existing object and keeps its accessions', async () => {
    const s = sample();
    const first = await ena.submit(add({ samples: [s] }));
    const modified = await ena.submit({ submission: { actions: [{ type: 'MODIFY' }] }, samples: [{ ...s, title: 'changed' }] });
    expect(modified.outcome).toBe('accepted');
    expect(modified.actions).toEqual(['MODIFY']);
    expect(modified.byAlias.SAMPLE[s.alias]?.accession).toBe(first.byAlias.SAMPLE[s.alias]?.accession);
    expect(modified.byAlias.SAMPLE[s.alias]?.biosampleAccession).toBe(first.byAlias.SAMPLE[s.alias]?.biosampleAccession);
    const unknown = await ena.submit({ submission: { actions: [{ type: 'MODIFY' }] }, samples: [sample()] });
    expect(unknown.outcome).toBe('rejected');
  });

  it('parses an error receipt with its messages, nothing persisted', async () => {
    const s = sample();
    const message = `Sample: ${s.alias}; Attribute: collection date; Reason: must match format "date"`;
    server.faults.errorReceipt(1, [message, 'Error at x. The value "y" for field "sex" does not match regular expression "z"']);
    const receipt = await ena.submit(add({ samples: [s] }));
    expect(receipt).toMatchObject({ success: false, outcome: 'rejected' });
    expect(receipt.errors).toEqual([message, 'Error at x. The value "y" for field "sex" does not match regular expression "z"']);
    expect(receipt.messages.filter((m) => m.level === 'ERROR')).toEqual([
      expect.objectContaining({ kind: 'checklist', sample: s.alias, attribute: 'collection date', reason: 'must match format "date"' }),
      expect.objectContaining({ kind: 'checklist', sample: 'x', attribute: 'sex' }),
    ]);
    expect(receipt.infos).toContain('Submission has been rolled back.');
    expect(receipt.byAlias.SAMPLE[s.alias]?.accession).toBeUndefined();
    expect(server.ena.objects().some((o) => o.alias === s.alias)).toBe(false);
  });

  it('gets real validation errors from the server: checklist, taxon, units', async () => {
    const noChecklist: SampleSpec = { alias: unique('bare'), taxonId: '9606', attributes: [{ tag: 'sex', value: 'female' }] };
    const genus: SampleSpec = { ...sample(), taxonId: '7215' };
    const noUnits: SampleSpec = {
      ...sample(),
      attributes: sample().attributes.map((a) => (a.tag === 'geographic location (latitude)' ? { tag: a.tag, value: a.value } : a)),
    };
    const receipt = await ena.submit(add({ samples: [noChecklist, genus, noUnits] }));
    expect(receipt.outcome).toBe('rejected');
    expect(receipt.errors).toEqual(
      expect.arrayContaining([
        `Sample: ${noChecklist.alias}; Reason: must have required property 'ENA-CHECKLIST'`,
        `In sample, alias: "${genus.alias}". Taxon id "7215" (Drosophila) is not submittable.`,
        `Sample: ${noUnits.alias}; Attribute: geographic location (latitude); Reason: must have required property 'unit'`,
      ]),
    );
  });

  it('VALIDATE checks without persisting', async () => {
    const s = sample();
    const receipt = await ena.submit({ submission: { actions: [{ type: 'VALIDATE' }, { type: 'ADD' }] }, samples: [s] });
    expect(receipt.outcome).toBe('accepted');
    expect(receipt.byAlias.SAMPLE[s.alias]?.accession).toBeUndefined();
    expect(server.ena.objects().some((o) => o.alias === s.alias)).toBe(false);
  });

  it('submits with HOLD, then moves the date and releases the study', async () => {
    const p = project();
    const hold = new Date(Date.now() + 100 * 86_400_000).toISOString().slice(0, 10);
    const added = await ena.submit({ submission: { actions: [{ type: 'ADD' }, { type: 'HOLD', holdUntilDate: hold }] }, projects: [p] });
    const accession = added.byAlias.PROJECT[p.alias]?.accession as string;
    expect(added.byAlias.PROJECT[p.alias]?.holdUntilDate).toBe(`${hold}+00:00`);
    expect(added.actions).toEqual(['ADD', 'HOLD']);

    const later = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    const moved = await ena.hold(accession, later);
    expect(moved.byAlias.PROJECT[p.alias]?.holdUntilDate).toBe(`${later}+00:00`);

    const released = await ena.release(accession);
    expect(released.outcome).toBe('accepted');
    expect(released.byAlias.PROJECT[p.alias]).toMatchObject({ accession, status: 'PUBLIC' });
    const unknown = await ena.release('PRJEB1');
    expect(unknown.outcome).toBe('rejected');
  });

  it('ADD with RELEASE makes objects public at once', async () => {
    const s = sample();
    const receipt = await ena.submit({ submission: { actions: [{ type: 'ADD' }, { type: 'RELEASE' }] }, samples: [s] });
    expect(receipt.byAlias.SAMPLE[s.alias]).toMatchObject({ status: 'PUBLIC' });
    expect(receipt.byAlias.SAMPLE[s.alias]?.holdUntilDate).toBeUndefined();
  });

  it('submits experiments and runs that refer to the project and sample', async () => {
    const p = project();
    const s = sample();
    const first = await ena.submit(add({ projects: [p], samples: [s] }));
    const projectAccession = first.byAlias.PROJECT[p.alias]?.accession as string;
    const biosample = first.byAlias.SAMPLE[s.alias]?.biosampleAccession as string;
    const x = unique('exp');
    const r = unique('run');
    const runDoc = () =>
      add({
        experiments: [
          {
            alias: x,
            study: { accession: projectAccession },
            sample: { accession: biosample },
            designDescription: '10x 3prime v3',
            libraryStrategy: 'RNA-Seq',
            librarySource: 'TRANSCRIPTOMIC SINGLE CELL',
            librarySelection: 'cDNA',
            libraryLayout: { type: 'PAIRED', nominalLength: 300 },
            platform: 'ILLUMINA',
            instrumentModel: 'Illumina NovaSeq 6000',
          },
        ],
        runs: [
          {
            alias: r,
            experiment: { refname: x },
            files: [
              { filename: 'sub/reads/a_R1.fastq.gz', filetype: 'fastq', checksum: READ_MD5 },
              { filename: 'sub/reads/a_R2.fastq.gz', filetype: 'fastq', checksum: READ_MD5 },
            ],
          },
        ],
      });
    // as Webin does, the run's files must already lie in the account's upload area
    const unstaged = await ena.submit(runDoc());
    expect(unstaged.outcome).toBe('rejected');
    expect(unstaged.errors.join(' ')).toMatch(/Failed to find file "sub\/reads\/a_R1.fastq.gz" in the Webin upload area/);
    const area = createUploadArea({ url: server.ftpUrl, ...server.credentials.ena, logger: captureLogger().logger });
    for (const name of ['sub/reads/a_R1.fastq.gz', 'sub/reads/a_R2.fastq.gz']) {
      await area.send(name, READ.length, async () => Readable.from([READ]));
    }
    area.close();
    const receipt = await ena.submit(runDoc());
    expect(receipt.outcome).toBe('accepted');
    expect(receipt.byAlias.EXPERIMENT[x]?.accession).toMatch(/^ERX\d+$/);
    expect(receipt.byAlias.RUN[r]?.accession).toMatch(/^ERR\d+$/);

    const orphan = await ena.submit(
      add({
        runs: [{ alias: unique('run'), experiment: { refname: 'nope' }, files: [{ filename: 'f', filetype: 'fastq', checksum: 'xyz' }] }],
      }),
    );
    expect(orphan.outcome).toBe('rejected');
    expect(orphan.errors.join(' ')).toMatch(/referenced experiment does not exist/);
    expect(orphan.errors.join(' ')).toMatch(/Invalid MD5 checksum/);

    // releasing the project makes its experiments and runs public too
    await ena.release(projectAccession);
    expect(
      server.ena
        .objects()
        .filter((o) => o.alias === x || o.alias === r)
        .map((o) => o.status),
    ).toEqual(['PUBLIC', 'PUBLIC']);
  });

  it('queues a submission and polls through the documented links shape', async () => {
    const s = sample();
    server.ena.settings.pendingPolls = 2;
    const queued = await ena.queue(add({ samples: [s] }));
    expect(queued.submissionId).toMatch(/^ERA\d+$/);
    expect(queued.pollUrl).toBe(`${server.enaUrl}/webin-v2/submit/poll/${queued.submissionId}`);
    expect(await ena.poll(queued)).toEqual({ state: 'pending' });
    expect(await ena.poll(queued.submissionId)).toEqual({ state: 'pending' });
    const done = await ena.poll(queued.pollUrl);
    expect(done.state).toBe('complete');
    if (done.state !== 'complete') return;
    expect(done.receipt.submission?.accession).toBe(queued.submissionId);
    expect(done.receipt.byAlias.SAMPLE[s.alias]?.biosampleAccession).toMatch(/^SAMEA/);
    const polls = server.requests.filter((r) => r.path.includes('/poll/'));
    expect(polls.every((p) => p.auth === 'basic' && p.query === '')).toBe(true);
  });

  it('polls through the HAL _links shape and waits for the receipt', async () => {
    server.ena.settings.pollLinkShape = 'hal';
    server.ena.settings.pendingPolls = 3;
    const s = sample();
    const queued = await ena.queue(add({ samples: [s] }));
    expect(queued.pollUrl).toBe(`${server.enaUrl}/webin-v2/submit/poll/${queued.submissionId}`);
    const receipt = await ena.waitForReceipt(queued, { intervalMs: 5, timeoutMs: 5_000 });
    expect(receipt.byAlias.SAMPLE[s.alias]?.accession).toMatch(/^ERS/);
  });

  it('never follows a poll link to another host', async () => {
    server.ena.settings.pollLinkOrigin = 'http://attacker.invalid';
    const queued = await ena.queue(add({ samples: [sample()] }));
    expect(queued.pollUrl).toBe(`${server.enaUrl}/webin-v2/submit/poll/${queued.submissionId}`);
  });

  it('stops waiting while still queued, with the id to poll later', async () => {
    server.ena.settings.pendingPolls = 100;
    const queued = await ena.queue(add({ samples: [sample()] }));
    const err = await ena.waitForReceipt(queued, { intervalMs: 5, timeoutMs: 30 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnaStillQueuedError);
    expect(err).toMatchObject({ submissionId: queued.submissionId, pollUrl: queued.pollUrl });
  });

  it('an error receipt fault also applies to a queued submission', async () => {
    server.faults.errorReceipt(1);
    const queued = await ena.queue(add({ samples: [sample()] }));
    server.ena.settings.pendingPolls = 0;
    server.ena.queued.get(queued.submissionId)!.pollsLeft = 0;
    const receipt = await ena.waitForReceipt(queued, { intervalMs: 1 });
    expect(receipt.outcome).toBe('rejected');
    expect(receipt.messages[0]).toMatchObject({ kind: 'checklist', attribute: 'collection date' });
  });

  it('the server also speaks the v1 drop-box (one part per object type)', async () => {
    const form = new FormData();
    const p = project();
    form.append('SUBMISSION', '<SUBMISSION><ACTIONS><ACTION><ADD/></ACTION></ACTIONS></SUBMISSION>');
    form.append(
      'PROJECT',
      `<PROJECT_SET><PROJECT alias="${p.alias}"><TITLE>A project sent through the drop-box</TITLE><DESCRIPTION>One part per object type, as v1 takes them</DESCRIPTION><SUBMISSION_PROJECT><SEQUENCING_PROJECT/></SUBMISSION_PROJECT></PROJECT></PROJECT_SET>`,
    );
    const res = await fetch(`${server.enaUrl}/drop-box/submit/`, {
      method: 'POST',
      body: form,
      headers: {
        authorization: `Basic ${Buffer.from(`${server.credentials.ena.username}:${server.credentials.ena.password}`).toString('base64')}`,
      },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<PROJECT[^>]*accession="PRJEB\d+"/);
  });

  it('the v2 endpoint wants a `file` part holding WEBIN', async () => {
    const auth = {
      authorization: `Basic ${Buffer.from(`${server.credentials.ena.username}:${server.credentials.ena.password}`).toString('base64')}`,
    };
    const form = new FormData();
    form.append('SUBMISSION', '<SUBMISSION/>');
    expect((await fetch(`${server.enaUrl}/webin-v2/submit`, { method: 'POST', body: form, headers: auth })).status).toBe(400);
    const bad = await ena.submit('<WEBIN><SUBMISSION_SET>');
    expect(bad.outcome).toBe('rejected');
    expect(bad.errors[0]).toMatch(/^Invalid XML/);
  });
});

describe('ENA client settings', () => {
  it('finds the Webin root whatever the setting names', () => {
    expect(webinRoot('https://wwwdev.ebi.ac.uk/ena/submit/drop-box')).toBe('https://wwwdev.ebi.ac.uk/ena/submit');
    expect(webinRoot('https://wwwdev.ebi.ac.uk/ena/submit/drop-box/submit/')).toBe('https://wwwdev.ebi.ac.uk/ena/submit');
    expect(webinRoot('https://www.ebi.ac.uk/ena/submit/webin-v2/')).toBe('https://www.ebi.ac.uk/ena/submit');
    expect(webinRoot('https://www.ebi.ac.uk/ena/submit')).toBe('https://www.ebi.ac.uk/ena/submit');
    const c = createEnaClient({
      baseUrl: 'https://wwwdev.ebi.ac.uk/ena/submit/drop-box',
      username: 'u',
      password: 'p',
      logger: captureLogger().logger,
    });
    expect(c.endpoints.submit).toBe('https://wwwdev.ebi.ac.uk/ena/submit/webin-v2/submit');
    expect(c.endpoints.queue).toBe('https://wwwdev.ebi.ac.uk/ena/submit/webin-v2/submit/queue');
    expect(c.endpoints.poll('ERA1')).toBe('https://wwwdev.ebi.ac.uk/ena/submit/webin-v2/submit/poll/ERA1');
  });

  it('needs a Webin account: a 409 naming the missing settings', () => {
    const { logger } = captureLogger();
    const err = (() => {
      try {
        enaClientOptionsFromConfig({ ENA_WEBIN_URL: 'https://x.org', ENA_USERNAME: 'Webin-1' }, logger);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'conflict', message: 'ENA submission is not configured: set ENA_PASSWORD.' });
    expect(enaClientOptionsFromConfig({ ENA_WEBIN_URL: 'https://x.org', ENA_USERNAME: 'u', ENA_PASSWORD: 'p' }, logger)).toMatchObject({
      baseUrl: 'https://x.org',
      username: 'u',
      password: 'p',
    });
  });
});
