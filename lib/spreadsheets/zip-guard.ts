import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * What an uploaded workbook (a zip) may expand to, checked before any spreadsheet library opens it: the entries
 * and their declared sizes from the central directory first, then every entry inflated once into nothing, with yauzl
 * refusing an entry whose real size is not the one declared. Memory stays at one inflate window; a zip bomb is
 * refused within the time it takes to inflate the limit.
 */
export interface ZipLimits {
  maxEntries: number;
  /** uncompressed bytes of one entry */
  maxEntryBytes: number;
  /** uncompressed bytes of all entries */
  maxTotalBytes: number;
}

const MiB = 1024 * 1024;

/** A manifest or study workbook: a 10,000-row sheet of a few hundred columns is well inside these. */
export const WORKBOOK_LIMITS: ZipLimits = { maxEntries: 2_000, maxEntryBytes: 160 * MiB, maxTotalBytes: 200 * MiB };

export class UnsafeZipError extends Error {
  constructor(
    message: string,
    /** the zip is not readable at all, as opposed to too large */
    readonly unreadable = false,
  ) {
    super(message);
    this.name = 'UnsafeZipError';
  }
}

export interface GuardedZip {
  names: string[];
  /** entries asked for by `keep`, inflated (each small by the caller's choice) */
  kept: Map<string, Buffer>;
  uncompressedBytes: number;
}

const open = (bytes: Buffer) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip),
    ),
  );

const mib = (n: number) => `${Math.round(n / MiB)} MB`;

export async function guardZip(
  bytes: Uint8Array,
  limits: ZipLimits = WORKBOOK_LIMITS,
  keep: (name: string) => boolean = () => false,
  /** the most a kept entry may expand to: it is held in memory */
  keepMaxBytes = 16 * MiB,
): Promise<GuardedZip> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: yauzl.ZipFile;
  try {
    zip = await open(buffer);
  } catch (err) {
    throw new UnsafeZipError(`it is not a readable zip archive (${err instanceof Error ? err.message : String(err)})`, true);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new UnsafeZipError(`it holds ${zip.entryCount} files; a workbook has at most ${limits.maxEntries}`);
  }
  const names: string[] = [];
  const kept = new Map<string, Buffer>();
  let declared = 0;
  let inflated = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          names.push(entry.fileName);
          declared += entry.uncompressedSize;
          if (entry.uncompressedSize > limits.maxEntryBytes) {
            throw new UnsafeZipError(
              `${entry.fileName} expands to ${mib(entry.uncompressedSize)}; the limit is ${mib(limits.maxEntryBytes)}`,
            );
          }
          if (declared > limits.maxTotalBytes) {
            throw new UnsafeZipError(`it expands to more than ${mib(limits.maxTotalBytes)}, the limit for a workbook`);
          }
          if (entry.fileName.endsWith('/')) return zip.readEntry();
          const stream = await new Promise<NodeJS.ReadableStream>((res, rej) =>
            zip.openReadStream(entry, (err, s) => (err || !s ? rej(err ?? new Error('no stream')) : res(s))),
          );
          const chunks: Buffer[] = [];
          const wanted = keep(entry.fileName);
          if (wanted && entry.uncompressedSize > keepMaxBytes) {
            throw new UnsafeZipError(`${entry.fileName} expands to ${mib(entry.uncompressedSize)}; the limit is ${mib(keepMaxBytes)}`);
          }
          await pipeline(
            stream,
            new Writable({
              write(chunk: Buffer, _enc, done) {
                inflated += chunk.length;
                if (inflated > limits.maxTotalBytes)
                  return done(new UnsafeZipError(`it expands to more than ${mib(limits.maxTotalBytes)}, the limit for a workbook`));
                if (wanted) chunks.push(chunk);
                done();
              },
            }),
          );
          if (wanted) kept.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        })().catch(reject);
      });
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    if (err instanceof UnsafeZipError) throw err;
    // yauzl's size validation and corrupt data both land here
    throw new UnsafeZipError(`it is not a readable zip archive (${err instanceof Error ? err.message : String(err)})`, true);
  }
  return { names, kept, uncompressedBytes: inflated };
}
