import { createHash } from 'node:crypto';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import type { FileStore, StoredFile } from '@/lib/files/store';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyComponents } from '@/lib/studies/types';

export interface NamedDataFile {
  /** the name in the profile's storage, as the sheet gives it */
  name: string;
  /** the sheet's MD5 for it, when the sheet has a checksum column for the term */
  md5?: string;
}

/** Every data file a study names (values of file-typed terms, in any component), once per name, with its checksum. */
export function dataFilesOf(def: ChecklistDefinition, components: StudyComponents): NamedDataFile[] {
  const out = new Map<string, NamedDataFile>();
  for (const c of def.components) {
    const fileTerms = c.fields.filter((f) => f.type === 'file').map((f) => f.termName);
    for (const row of components[c.key] ?? []) {
      for (const term of fileTerms) {
        const name = row[term]?.trim();
        if (!name) continue;
        const md5 = row[`${term}_checksum`]?.trim().toLowerCase();
        const known = out.get(name);
        out.set(name, { name, ...((md5 || known?.md5) && { md5: md5 || known?.md5 }) });
      }
    }
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const MD5 = /^[0-9a-f]{32}$/;

/**
 * A stored file's MD5: its ETag when that is one (the local store's own digest, or S3's for a single PUT), else
 * computed from its bytes, streamed (a multipart S3 upload's ETag is a digest of digests).
 */
export async function storedMd5(store: FileStore, profileId: string, file: StoredFile): Promise<string> {
  const etag = file.etag.toLowerCase();
  if (MD5.test(etag)) return etag;
  const md5 = createHash('md5');
  for await (const chunk of await store.read(profileId, file.fileName)) md5.update(chunk as Buffer);
  return md5.digest('hex');
}

/**
 * The stored file a study names, checked against the checksum its sheet gives. The study is rejected (no retry will
 * help) when the file is not in the profile's storage or its bytes are not the ones the sheet describes.
 */
export async function checkStoredFile(store: FileStore, profileId: string, name: string, expectedMd5: string): Promise<StoredFile> {
  const file = await store.stat(profileId, name);
  if (!file) throw new RepositoryRefused('storage', `File ${name} is not in the profile's storage: upload it, then submit again.`);
  const md5 = await storedMd5(store, profileId, file);
  if (md5 !== expectedMd5.toLowerCase()) {
    throw new RepositoryRefused(
      'storage',
      `File ${name} does not match the sheet's checksum: its MD5 is ${md5}, the sheet says ${expectedMd5}.`,
    );
  }
  return file;
}
