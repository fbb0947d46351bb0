import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { RepositoryError, RepositoryUnavailableError } from '@/lib/repositories/errors';
import {
  createZenodoClient,
  type ZenodoClient,
  ZenodoError,
  type ZenodoMetadata,
  zenodoClientOptionsFromConfig,
} from '@/lib/repositories/zenodo';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { captureLogger, FAST } from './support/repository-server/log';

let server: RepositoryServer;
let zenodo: ZenodoClient;

const metadata = (over: Partial<ZenodoMetadata> = {}): ZenodoMetadata => ({
  upload_type: 'dataset',
  title: 'Single-cell atlas of Aglais io',
  description: '<p>Study STUDY001</p>',
  creators: [{ name: 'Doe, Jane', affiliation: 'Earlham Institute', orcid: '0000-0002-1825-0097' }],
  license: 'cc-zero',
  access_right: 'open',
  keywords: ['STUDY001', 'broker'],
  ...over,
});

const md5 = (s: string | Uint8Array) => createHash('md5').update(s).digest('hex');

beforeAll(async () => {
  server = await startRepositoryServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.faults.clear();
  zenodo = createZenodoClient({
    baseUrl: server.zenodoUrl,
    token: server.credentials.zenodo.token,
    logger: captureLogger().logger,
    ...FAST,
  });
});

describe('Zenodo deposition client', () => {
  it('creates, uploads, describes and publishes a deposition to a DOI, then opens a new version', async () => {
    const draft = await zenodo.createDeposition();
    expect(draft).toMatchObject({ state: 'unsubmitted', submitted: false });
    expect(draft.doi).toBeUndefined();
    expect(draft.links.bucket).toMatch(new RegExp(`^${server.zenodoUrl}/files/`));

    const file = await zenodo.uploadFile(draft, 'manifest.xlsx', new Uint8Array([1, 2, 3]));
    expect(file).toMatchObject({ key: 'manifest.xlsx', size: 3, checksum: `md5:${md5(new Uint8Array([1, 2, 3]))}` });
    const streamed = await zenodo.uploadFile(draft.links.bucket as string, 'reads R1.fastq', () => new Blob(['ACGT\n']).stream());
    expect(streamed).toMatchObject({ key: 'reads R1.fastq', size: 5 });

    const described = await zenodo.updateMetadata(draft.id, metadata());
    expect(described.metadata).toMatchObject({ title: 'Single-cell atlas of Aglais io', upload_type: 'dataset' });

    const published = await zenodo.publish(draft.id);
    expect(published).toMatchObject({
      id: draft.id,
      state: 'done',
      submitted: true,
      doi: `10.5072/zenodo.${draft.id}`,
      recordId: draft.id,
    });
    expect(published.doiUrl).toBe(`https://doi.org/10.5072/zenodo.${draft.id}`);
    expect(published.files.map((f) => f.filename).sort()).toEqual(['manifest.xlsx', 'reads R1.fastq']);

    // the bucket of a published record is locked; changes need a new version
    const locked = await zenodo.uploadFile(draft, 'late.txt', 'x').catch((e: unknown) => e);
    expect(locked).toBeInstanceOf(ZenodoError);
    expect(locked).toMatchObject({ status: 403 });

    const next = await zenodo.newVersion(draft.id);
    expect(next.id).not.toBe(draft.id);
    expect(next).toMatchObject({ state: 'unsubmitted', submitted: false });
    expect(next.files.map((f) => f.filename).sort()).toEqual(['manifest.xlsx', 'reads R1.fastq']);
    await zenodo.deleteFile(next, 'reads R1.fastq');
    await zenodo.uploadFile(next, 'reads R1.fastq', 'ACGTT\n');
    await zenodo.updateMetadata(next.id, metadata({ version: '2' }));
    const v2 = await zenodo.publish(next.id);
    expect(v2.doi).toBe(`10.5072/zenodo.${next.id}`);
    expect(v2.doi).not.toBe(published.doi);
    expect(v2.conceptDoi).toBe(published.conceptDoi);
    expect(server.zenodo.dois).toEqual(expect.arrayContaining([published.doi, v2.doi]));

    // asking again while the draft is open gives the same draft
    const v3 = await zenodo.newVersion(next.id);
    expect((await zenodo.newVersion(next.id)).id).toBe(v3.id);

    const requests = server.requests.filter((r) => r.service === 'zenodo');
    expect(requests.every((r) => r.auth === 'bearer')).toBe(true);
    expect(
      requests.filter((r) => r.method === 'PUT' && r.path.includes('/files/')).every((r) => !r.contentType?.startsWith('multipart')),
    ).toBe(true);
  });

  it('edits the metadata of a published deposition', async () => {
    const d = await zenodo.createDeposition(metadata());
    await zenodo.uploadFile(d, 'a.txt', 'a');
    await zenodo.publish(d.id);
    const refused = await zenodo.updateMetadata(d.id, metadata({ title: 'New' })).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ZenodoError', status: 400 });
    await zenodo.edit(d.id);
    await zenodo.updateMetadata(d.id, metadata({ title: 'New' }));
    const again = await zenodo.publish(d.id);
    expect(again.metadata.title).toBe('New');
    expect(again.doi).toBe(`10.5072/zenodo.${d.id}`);
  });

  it('carries Zenodo error JSON in a typed error', async () => {
    const d = await zenodo.createDeposition();
    const err = await zenodo.publish(d.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZenodoError);
    const z = err as ZenodoError;
    expect(z.status).toBe(400);
    expect(z.zenodo?.message).toBe('Validation error.');
    expect(z.fieldErrors).toEqual(
      expect.arrayContaining([
        { field: 'metadata.title', message: 'Missing data for required field.' },
        { message: 'Minimum one file must be provided.' },
      ]),
    );
    expect(z.message).toMatch(/^Validation error\. \(.*metadata\.title: Missing data for required field\./);

    const invalid = await zenodo
      .updateMetadata(d.id, metadata({ upload_type: 'spreadsheet' as 'dataset', license: '' }))
      .catch((e: unknown) => e);
    expect((invalid as ZenodoError).fieldErrors.map((e) => e.field)).toEqual(
      expect.arrayContaining(['metadata.upload_type', 'metadata.license']),
    );

    const missing = await zenodo.getDeposition(999_999).catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'ZenodoError', status: 404, zenodo: { message: 'PID does not exist.' } });
  });

  it('sends the token as Bearer and reports a refused token', async () => {
    const bad = createZenodoClient({ baseUrl: server.zenodoUrl, token: 'nope', logger: captureLogger().logger, ...FAST });
    const before = server.requests.length;
    const err = await bad.createDeposition().catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ZenodoError', status: 401 });
    expect(server.requests.length - before).toBe(1);
  });

  it('never sends the token to a bucket on another host', async () => {
    const before = server.requests.length;
    const err = await zenodo.uploadFile('http://attacker.invalid/api/files/x', 'a.txt', 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryError);
    expect((err as Error).message).toMatch(/refusing to send the Zenodo token/);
    expect(server.requests.length).toBe(before);
  });

  it('retries an upload answered 500, rebuilding the stream', async () => {
    const d = await zenodo.createDeposition();
    server.faults.fail(2, { service: 'zenodo', method: 'PUT' });
    let streams = 0;
    const f = await zenodo.uploadFile(d, 'big.bin', () => {
      streams += 1;
      return new Blob(['0123456789']).stream();
    });
    expect(f.size).toBe(10);
    expect(streams).toBe(3);
  });

  it('does not create a second deposition after a timeout, but retries one answered 5xx', async () => {
    const slow = createZenodoClient({
      baseUrl: server.zenodoUrl,
      token: server.credentials.zenodo.token,
      logger: captureLogger().logger,
      ...FAST,
      timeoutMs: 100,
    });
    server.faults.hang(1, { service: 'zenodo', method: 'POST' });
    const before = server.requests.length;
    await expect(slow.createDeposition()).rejects.toBeInstanceOf(RepositoryUnavailableError);
    expect(server.requests.length - before).toBe(1);

    server.faults.fail(1, { service: 'zenodo', method: 'POST', status: 502 });
    const d = await zenodo.createDeposition(metadata());
    expect(d.metadata.title).toBe('Single-cell atlas of Aglais io');
  });

  it('needs a token: a 409 naming ZENODO_TOKEN', () => {
    const { logger } = captureLogger();
    expect(() => zenodoClientOptionsFromConfig({ ZENODO_URL: 'https://sandbox.zenodo.org/api' }, logger)).toThrow(AppError);
    expect(() => zenodoClientOptionsFromConfig({ ZENODO_URL: 'https://sandbox.zenodo.org/api' }, logger)).toThrow('set ZENODO_TOKEN');
    expect(zenodoClientOptionsFromConfig({ ZENODO_URL: 'https://z.org/api', ZENODO_TOKEN: 't' }, logger)).toMatchObject({
      baseUrl: 'https://z.org/api',
      token: 't',
    });
  });

  it('the server wants JSON bodies', async () => {
    const res = await fetch(`${server.zenodoUrl}/deposit/depositions`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: `Bearer ${server.credentials.zenodo.token}`, 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
  });
});
