import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform, type Writable } from 'node:stream';
// ftp-srv is CommonJS: only what its module.exports names can be imported by name (its typings also name errors it does not export)
import { FileSystem, type FtpConnection, FtpSrv } from 'ftp-srv';
import { createLogger } from '@/lib/logger';

/**
 * The Webin file upload area in miniature: an FTP server (ftp-srv) with one folder per Webin account under a
 * temporary directory, login with the account's password, and a fault that drops the connection part-way through
 * the next uploads. The ENA stand-in reads the same folders to check a RUN's files as Webin does.
 */

export interface UploadAreaServer {
  url: string;
  /** where an account's uploads land on disk */
  folderOf(account: string): string;
  /** size and MD5 of a file in an account's area, or null */
  fileOf(account: string, remotePath: string): Promise<{ size: number; md5: string } | null>;
  /** the next `count` uploads are cut off after `afterBytes` bytes, their connection closed */
  dropUploads(count: number, afterBytes: number): void;
  /** uploads finished (STOR completed), by account and path, in order */
  readonly stored: { account: string; path: string }[];
  close(): Promise<void>;
}

type Drop = { remaining: number; afterBytes: number };

/** The account's folder, with uploads that a pending fault cuts off. */
class AreaFileSystem extends FileSystem {
  constructor(
    connection: FtpConnection,
    root: string,
    private readonly drops: Drop,
    private readonly onStored: (clientPath: string) => void,
  ) {
    super(connection, { root, cwd: '/' });
  }

  override write(fileName: string, opts?: { append?: boolean; start?: number }): { stream: Writable; clientPath: string } {
    const { stream: file, clientPath } = super.write(fileName, opts) as { stream: Writable; clientPath: string };
    file.once('finish', () => this.onStored(clientPath));
    if (this.drops.remaining <= 0) return { stream: file, clientPath };
    this.drops.remaining -= 1;
    let seen = 0;
    const limit = this.drops.afterBytes;
    const connection = this.connection as FtpConnection & {
      commandSocket?: { destroy(): void };
      connector?: { socket?: { destroy(): void } };
    };
    // bytes up to the limit reach the file; then the line goes dead, as when a network drops mid-transfer
    const cut = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (seen + chunk.length <= limit) {
          seen += chunk.length;
          done(null, chunk);
          return;
        }
        done(null, chunk.subarray(0, Math.max(0, limit - seen)));
        seen = limit;
        connection.connector?.socket?.destroy();
        connection.commandSocket?.destroy();
      },
    });
    cut.pipe(file);
    return { stream: cut, clientPath };
  }
}

export async function startUploadAreaServer(accounts: Record<string, string>): Promise<UploadAreaServer> {
  const root = await mkdtemp(path.join(tmpdir(), 'rmb-webin-area-'));
  const drops: Drop = { remaining: 0, afterBytes: 0 };
  const stored: { account: string; path: string }[] = [];
  const signals = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;
  const before = new Map(signals.map((s) => [s, process.listeners(s)]));
  const server = new FtpSrv({
    url: 'ftp://127.0.0.1:0',
    pasv_url: '127.0.0.1',
    pasv_min: 40000,
    pasv_max: 60000,
    anonymous: false,
    log: createLogger('silent'),
  });
  // ftp-srv makes the whole process exit on these signals; a test server must not
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.includes(l)) process.removeListener(s, l);

  const folderOf = (account: string) => path.join(root, account);
  server.on('login', ({ connection, username, password }, resolve, reject) => {
    if (accounts[username] === undefined || accounts[username] !== password) {
      // answered 530 with this message
      reject(new Error('Login incorrect.'));
      return;
    }
    const folder = folderOf(username);
    mkdirSync(folder, { recursive: true });
    resolve({ fs: new AreaFileSystem(connection, folder, drops, (p) => stored.push({ account: username, path: p.replace(/^\/+/, '') })) });
  });
  await server.listen();
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();

  return {
    url: `ftp://127.0.0.1:${port}`,
    folderOf,
    stored,
    async fileOf(account, remotePath) {
      const file = path.join(folderOf(account), ...remotePath.split('/'));
      try {
        const info = await stat(file);
        const md5 = createHash('md5');
        for await (const chunk of createReadStream(file)) md5.update(chunk as Buffer);
        return { size: info.size, md5: md5.digest('hex') };
      } catch {
        return null;
      }
    },
    dropUploads(count, afterBytes) {
      drops.remaining = count;
      drops.afterBytes = afterBytes;
    },
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
