import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Database, openDatabase } from '@/db/client';
import { parseConfig } from '@/lib/config';
import { startJobQueue } from '@/lib/jobs/queue';
import { createLogger } from '@/lib/logger';
import { seedReferenceData } from '@/lib/seed';
import { jobDefinitions } from '@/lib/server/jobs';
import { NO_TAXONOMY } from './no-taxonomy';

/**
 * Makes the database every test database copies (tests/support/global-setup.ts runs this, bundled, as a process):
 * `postgres <url>` migrates and seeds the empty database at <url>; `pglite <file>` does the same to a new embedded
 * database and writes its dump to <file>.
 */

/**
 * As the service leaves a database after its first start: migrated, seeded, and with the job queue's tables and
 * queues, which pg-boss makes on its first start (0.2-0.3 s of each PGlite harness's set-up when every test database
 * made them again).
 */
async function prepareTemplate(database: Database): Promise<void> {
  await seedReferenceData(database.db);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-template-queue-'));
  try {
    const logger = createLogger('error');
    const config = parseConfig({ DATA_DIR: dataDir, NEXTAUTH_SECRET: `template-${randomBytes(8).toString('hex')}` });
    const queue = await startJobQueue(
      database,
      logger,
      (jobs) => jobDefinitions({ db: database.db, config, logger, taxonomy: NO_TAXONOMY, jobs }),
      { workers: false },
    );
    await queue.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(kind: string | undefined, target: string | undefined): Promise<void> {
  if (kind === 'postgres' && target) {
    const database = await openDatabase({ url: target, max: 2 });
    await prepareTemplate(database);
    await database.close();
    return;
  }
  if (kind !== 'pglite' || !target) throw new Error('usage: make-template (postgres <url> | pglite <file>)');
  const database = await openDatabase({});
  await prepareTemplate(database);
  // no test database is made from PGlite's template databases, and their files were a third of each copy's (12 of 40
  // MB, 600 of 1,200 files): a copy starts in 1.0 s of CPU without them, 1.4 s with them
  for (const name of ['template0', 'template1']) {
    await database.pglite!.query(`alter database ${name} is_template false`);
    await database.pglite!.query(`drop database ${name}`);
  }
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  writeFileSync(target, Buffer.from(await dump.arrayBuffer()));
}

main(process.argv[2], process.argv[3]).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
