import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import { FTPError, Client as FtpClient } from 'basic-ftp';
import type { Logger } from 'pino';
import { Conflict } from '@/lib/errors';
import { RepositoryError, type RepositoryService, RepositoryUnavailableError } from '../errors';

/**
 * The Webin file upload area (ENA's `webin2.ebi.ac.uk`), reached by FTP with the Webin account, where read files
 * must lie before a RUN naming them is submitted (docs/studies-and-checklists.md §11.2). One FTP session per upload
 * area instance; a transfer that fails (a dropped connection, a timeout) is sent again from its first byte on a
 * new session, a few times, before the failure is reported as the area being unavailable. The BioImage Archive's
 * upload area speaks the same protocol and uses this client too (lib/repositories/bioimage.ts).
 */

export interface UploadAreaOptions {
  /** ftp://host[:port][/folder] (plain FTP) or ftps://host[:port][/folder] (FTP with explicit TLS) */
  url: string;
  /** whose area it is, for errors and logs (default: ENA's Webin upload area, set by ENA_FTP_URL) */
  area?: { service: RepositoryService; name: string; setting: string };
  username: string;
  password: string;
  logger: Logger;
  /** per FTP command and per stalled transfer; default 60 s */
  timeoutMs?: number;
  /** further attempts of one file after the first; default 3 */
  retries?: number;
  retryDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface SendProgress {
  /** bytes of the file sent so far in this attempt */
  sent: number;
  attempt: number;
}

export interface UploadArea {
  /**
   * Sends a file to `remotePath` (relative to the account's area; folders are created). `open` gives the file's
   * bytes afresh for each attempt. The remote size is checked against `size` afterwards.
   */
  send(remotePath: string, size: number, open: () => Promise<Readable>, onProgress?: (p: SendProgress) => void): Promise<void>;
  /** the size of a file in the area, or null when there is none */
  size(remotePath: string): Promise<number | null>;
  close(): void;
}

const DEFAULTS = { timeoutMs: 60_000, retries: 3, retryDelayMs: 1_000 };

const WEBIN_AREA = { service: 'ena', name: 'The Webin upload area', setting: 'ENA_FTP_URL' } as const;

/**
 * Where the area is, from its setting (ENA_FTP_URL, BIOIMAGE_FTP_URL): the host, and the folder the URL's path names
 * within the account (`ftp://host/upload/a1b2c3`): the BioImage Archive gives each submitter a folder of their own,
 * and what lands elsewhere is never looked at. `/` when the URL names none.
 */
function endpointOf(url: string, area: UploadAreaOptions['area'] & {}): { host: string; port: number; secure: boolean; folder: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new RepositoryError(area.service, `${area.setting} is not a URL: ${url}`);
  }
  if (u.protocol !== 'ftp:' && u.protocol !== 'ftps:')
    throw new RepositoryError(area.service, `${area.setting} must be ftp:// or ftps://, not ${u.protocol}`);
  let folder: string;
  try {
    folder = path.normalize(`/${decodeURIComponent(u.pathname)}`);
  } catch {
    throw new RepositoryError(area.service, `${area.setting} has a path that is not UTF-8: ${u.pathname}`);
  }
  if (folder.length > 1 && folder.endsWith('/')) folder = folder.slice(0, -1);
  return { host: u.hostname, port: u.port ? Number(u.port) : 21, secure: u.protocol === 'ftps:', folder };
}

/** A remote path as the area knows it: relative, `/`-separated, never leaving the area. */
function areaPath(remotePath: string, area: UploadAreaOptions['area'] & {}): string {
  const normal = path.normalize(remotePath.replace(/\\/g, '/')).replace(/^\/+/, '');
  if (!normal || normal === '.' || normal.startsWith('..'))
    throw new RepositoryError(area.service, `not a path in the upload area: ${remotePath}`);
  return normal;
}

export function createUploadArea(options: UploadAreaOptions): UploadArea {
  const area = options.area ?? WEBIN_AREA;
  const endpoint = endpointOf(options.url, area);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const retries = options.retries ?? DEFAULTS.retries;
  const retryDelayMs = options.retryDelayMs ?? DEFAULTS.retryDelayMs;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const log = options.logger.child({ service: 'ena-upload-area' });
  let session: FtpClient | undefined;

  const connect = async (): Promise<FtpClient> => {
    if (session && !session.closed) return session;
    const client = new FtpClient(timeoutMs);
    await client.access({
      host: endpoint.host,
      port: endpoint.port,
      user: options.username,
      password: options.password,
      secure: endpoint.secure,
    });
    session = client;
    return client;
  };

  const drop = () => {
    session?.close();
    session = undefined;
  };

  const isLoginRefused = (err: unknown) => err instanceof FTPError && (err.code === 530 || err.code === 430);
  const loginRefused = (err: unknown) =>
    new RepositoryError(area.service, `${area.name} refused the account ${options.username}: ${(err as Error).message}`);

  return {
    async send(remotePath, size, open, onProgress) {
      const target = areaPath(remotePath, area);
      for (let attempt = 1; ; attempt++) {
        let source: Readable | undefined;
        try {
          const client = await connect();
          // into the area's folder, then the file's own folders under it, each made when missing
          await client.ensureDir(path.join(endpoint.folder, path.dirname(target)));
          await client.cd(endpoint.folder);
          source = await open();
          client.trackProgress((info) => onProgress?.({ sent: info.bytes, attempt }));
          try {
            await client.uploadFrom(source, target);
          } finally {
            client.trackProgress();
          }
          const remote = await client.size(target);
          if (remote !== size) throw new RepositoryError(area.service, `the upload area holds ${remote} bytes of ${target}, not ${size}`);
          log.info({ file: target, size, attempt }, `file staged: ${area.name}`);
          return;
        } catch (err) {
          source?.destroy();
          drop();
          // a refused login is permanent for this account: no retry, the message says what to fix
          if (isLoginRefused(err)) {
            throw loginRefused(err);
          }
          const willRetry = attempt <= retries;
          log.warn({ file: target, attempt, error: (err as Error).message, willRetry }, 'staging a file failed');
          if (!willRetry) {
            throw new RepositoryUnavailableError(area.service, 'STOR', `${options.url}/${target}`, attempt, false, err);
          }
          await sleep(retryDelayMs * 2 ** (attempt - 1));
        }
      }
    },

    async size(remotePath) {
      try {
        const client = await connect();
        return await client.size(path.join(endpoint.folder, areaPath(remotePath, area)));
      } catch (err) {
        if (err instanceof FTPError && err.code === 550) return null;
        drop();
        throw isLoginRefused(err) ? loginRefused(err) : err;
      }
    },

    close: drop,
  };
}

/** The upload area for the service settings; 409 naming the setting when there is no Webin account. */
export function uploadAreaOptionsFromConfig(
  config: { ENA_FTP_URL: string; ENA_USERNAME?: string; ENA_PASSWORD?: string },
  logger: Logger,
  extra: Partial<UploadAreaOptions> = {},
): UploadAreaOptions {
  if (!config.ENA_USERNAME || !config.ENA_PASSWORD) {
    throw Conflict('ENA submission is not configured: set ENA_USERNAME and ENA_PASSWORD.');
  }
  return { url: config.ENA_FTP_URL, username: config.ENA_USERNAME, password: config.ENA_PASSWORD, logger, ...extra };
}
