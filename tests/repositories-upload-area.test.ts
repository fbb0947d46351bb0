import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUploadArea, RepositoryError, RepositoryUnavailableError } from '@/lib/repositories';
import { startUploadAreaServer, type UploadAreaServer } from './support/repository-server/ftp';
import { captureLogger } from './support/repository-server/log';

const ACCOUNT = 'Webin-00000';
const PASSWORD = 'webin-test-password';
let ftp: UploadAreaServer;

beforeAll(async () => {
  ftp = await startUploadAreaServer({ [ACCOUNT]: PASSWORD });
});
afterAll(() => ftp.close());
beforeEach(() => ftp.dropUploads(0, 0));

const area = (password = PASSWORD) =>
  createUploadArea({
    url: ftp.url,
    username: ACCOUNT,
    password,
    logger: captureLogger().logger,
    retries: 2,
    retryDelayMs: 1,
    timeoutMs: 5_000,
  });

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('the Webin upload area over FTP', () => {
  it('sends a file into a folder it creates, reporting progress, and checks the size the area holds', async () => {
    const bytes = randomBytes(300_000);
    const a = area();
    const seen: number[] = [];
    await a.send(
      'aa11/run1_R1.fastq.gz',
      bytes.length,
      async () => Readable.from([bytes]),
      (p) => seen.push(p.sent),
    );
    expect(await ftp.fileOf(ACCOUNT, 'aa11/run1_R1.fastq.gz')).toEqual({ size: bytes.length, md5: md5(bytes) });
    expect(await a.size('aa11/run1_R1.fastq.gz')).toBe(bytes.length);
    expect(await a.size('aa11/none.fastq.gz')).toBeNull();
    expect(seen.at(-1)).toBe(bytes.length);
    a.close();
  });

  it('sends into the folder the area’s URL names, made when missing, and reads sizes there', async () => {
    const bytes = randomBytes(50_000);
    const a = createUploadArea({
      url: `${ftp.url}/upload/submitter-7f3a9c/`,
      username: ACCOUNT,
      password: PASSWORD,
      logger: captureLogger().logger,
      retries: 0,
      timeoutMs: 5_000,
    });
    await a.send('SAMEA1_1.jpg', bytes.length, async () => Readable.from([bytes]));
    await a.send('nested/SAMEA1_2.jpg', bytes.length, async () => Readable.from([bytes]));
    expect(await ftp.fileOf(ACCOUNT, 'upload/submitter-7f3a9c/SAMEA1_1.jpg')).toEqual({ size: bytes.length, md5: md5(bytes) });
    expect(await ftp.fileOf(ACCOUNT, 'upload/submitter-7f3a9c/nested/SAMEA1_2.jpg')).toEqual({ size: bytes.length, md5: md5(bytes) });
    // nothing at the account's root
    expect(await ftp.fileOf(ACCOUNT, 'SAMEA1_1.jpg')).toBeNull();
    expect(await a.size('SAMEA1_1.jpg')).toBe(bytes.length);
    expect(await a.size('nested/SAMEA1_2.jpg')).toBe(bytes.length);
    expect(await area().size('SAMEA1_1.jpg')).toBeNull();
    a.close();
  });

  it('sends a file again from its first byte when the connection drops part-way', async () => {
    const bytes = randomBytes(2_000_000);
    ftp.dropUploads(1, 500_000);
    const a = area();
    let opened = 0;
    await a.send('bb22/run2.fastq.gz', bytes.length, async () => {
      opened += 1;
      return Readable.from([bytes.subarray(0, 1_000_000), bytes.subarray(1_000_000)]);
    });
    expect(opened).toBe(2);
    expect(await ftp.fileOf(ACCOUNT, 'bb22/run2.fastq.gz')).toEqual({ size: bytes.length, md5: md5(bytes) });
    a.close();
  });

  it('reports the area unavailable when every attempt is cut off, and refuses a wrong password at once', async () => {
    const bytes = randomBytes(100_000);
    ftp.dropUploads(10, 10_000);
    const err = await area()
      .send('cc33/run3.fastq.gz', bytes.length, async () => Readable.from([bytes]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryUnavailableError);
    expect((err as RepositoryUnavailableError).attempts).toBe(3);

    ftp.dropUploads(0, 0);
    const refused = await area('wrong')
      .send('cc33/run3.fastq.gz', bytes.length, async () => Readable.from([bytes]))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RepositoryError);
    expect(refused).not.toBeInstanceOf(RepositoryUnavailableError);
    expect((refused as Error).message).toMatch(/refused the account Webin-00000/);
  });

  it('keeps every path inside the account’s area', async () => {
    const a = area();
    await expect(a.send('../escape.txt', 1, async () => Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /not a path in the upload area/,
    );
    a.close();
  });
});
