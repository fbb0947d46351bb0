import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '@/db/client';
import { parseChecklistSet } from '@/lib/repositories/ena/checklists';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { storeChecklists } from '@/lib/sample-checklists/store';

/** COPO's own sample checklists, in ENA's format (db/seed/data/sample-checklists, MIT): Darwin Core and FAANG. */
const COPO_FILES = ['sample_checklist_dwc.xml', 'sample_checklist_faang.xml'];

const dataDir = (env: NodeJS.ProcessEnv = process.env) =>
  env.REFERENCE_DIR
    ? path.resolve(env.REFERENCE_DIR, 'sample-checklists')
    : path.join(process.cwd(), 'db', 'seed', 'data', 'sample-checklists');

let read: Promise<SampleChecklist[]> | undefined;

/** COPO's checklists, parsed once per process. */
export function readCopoChecklists(): Promise<SampleChecklist[]> {
  read ??= Promise.all(
    COPO_FILES.map(async (file) =>
      parseChecklistSet(await readFile(path.join(/* turbopackIgnore: true */ dataDir(), file), 'utf8'), 'copo'),
    ),
  ).then((sets) => sets.flat());
  read.catch(() => {
    read = undefined;
  });
  return read;
}

/** COPO's checklists stored as they are in the files (ENA's are read by the refresh job, lib/sample-checklists/refresh.ts). */
export async function seedSampleChecklists(db: Db): Promise<void> {
  await storeChecklists(db, await readCopoChecklists());
}
