import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '@/db/client';
import { getChecklistDefinition } from '@/lib/checklists/definitions';
import { crashPoint } from '@/lib/crash-points';
import type { FileStore } from '@/lib/files/store';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { ZenodoClient, ZenodoCreator, ZenodoDeposition } from '@/lib/repositories/zenodo';
import { type StudyRow, writeStudyWorkbook } from '@/lib/studies';
import type { SubmissionAccessions, SubmissionProgress } from '@/lib/submissions/contract';
import { recordProgress } from '../submissions';
import { merge, saveAccessions } from './accessions';
import { checkStoredFile, dataFilesOf, storedMd5 } from './data-files';
import { PROGRESS_INTERVAL_MS, recordFileProgress } from './file-progress';

/**
 * A study at Zenodo (docs/studies-and-checklists.md §11.4): one deposition holding every data file the study names and
 * the study's spreadsheet. Files are checked against the sheet's checksums before anything is sent, streamed from
 * the profile's storage into the deposition's bucket (never held whole in memory), and checked against the MD5
 * Zenodo computes. A submission that dies half-way resumes on the same deposition and skips the files already
 * there; a study submitted again after publishing becomes a new version of the record.
 */

export interface ZenodoDeps {
  db: Db;
  baseUrl: string;
  files: FileStore;
}

function creatorsOf(study: StudyRow): ZenodoCreator[] {
  const people = (study.components.person ?? [])
    .filter((p) => p.familyName || p.givenName)
    .map((p) => ({
      name: [p.familyName, p.givenName].filter(Boolean).join(', '),
      ...(p.affiliation && { affiliation: p.affiliation }),
      ...(p.orcid_id && { orcid: p.orcid_id.replace(/^https?:\/\/orcid\.org\//, '') }),
    }));
  return people.length ? people : [{ name: 'Research Metadata Broker' }];
}

/** What goes into the deposition: a stored data file, or the study's spreadsheet made now. */
type Payload =
  | { name: string; md5: string; size: number; kind: 'stored' }
  | { name: string; md5: string; size: number; kind: 'bytes'; bytes: Uint8Array };

const zenodoMd5 = (checksum: string | undefined) => checksum?.replace(/^md5:/i, '').toLowerCase();

export async function submitToZenodo(
  deps: ZenodoDeps,
  client: ZenodoClient,
  submissionId: string,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<SubmissionAccessions> {
  const def = await getChecklistDefinition(deps.db, study.schemaName, study.checklistId);

  // every named file present and the one the sheet describes, before anything reaches Zenodo
  const payload: Payload[] = [];
  for (const f of dataFilesOf(def, study.components)) {
    await recordFileProgress(deps.db, submissionId, f.name, { state: 'checking', sent: 0 });
    try {
      const stored = f.md5
        ? await checkStoredFile(deps.files, study.profileId, f.name, f.md5)
        : await deps.files.stat(study.profileId, f.name);
      if (!stored) throw new RepositoryRefused('zenodo', `File ${f.name} is not in the profile's storage: upload it, then submit again.`);
      const md5 = f.md5 ?? (await storedMd5(deps.files, study.profileId, stored));
      payload.push({ name: f.name, md5, size: stored.sizeInBytes, kind: 'stored' });
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'waiting', size: stored.sizeInBytes, md5 });
    } catch (err) {
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'failed', error: (err as Error).message });
      throw err;
    }
  }
  const sheetName = `${study.studyId}.xlsx`;
  if (payload.some((p) => p.name === sheetName))
    throw new RepositoryRefused('zenodo', `A data file is named ${sheetName}, the name of the study's spreadsheet at Zenodo.`);
  const workbook = new Uint8Array(await writeStudyWorkbook(def, study.components));
  payload.push({
    name: sheetName,
    md5: createHash('md5').update(workbook).digest('hex'),
    size: workbook.length,
    kind: 'bytes',
    bytes: workbook,
  });

  const values = study.components.study?.[0] ?? {};
  const metadata = {
    upload_type: 'dataset' as const,
    title: values.title || values.project_name || study.studyId,
    description: values.description || values.title || study.studyId,
    creators: creatorsOf(study),
    access_right: 'open' as const,
    license: 'cc-zero',
    keywords: [study.studyId, study.schemaName],
  };
  const own = study.accessions.zenodo ?? {};
  let depositionId = progress.deposition_id || own.study || '';
  let deposition: ZenodoDeposition;
  if (depositionId) {
    deposition = await client.getDeposition(depositionId);
    // a published record cannot change: a new version carries the change (the draft at links.latest_draft)
    if (deposition.state === 'done') deposition = await client.newVersion(depositionId);
  } else {
    deposition = await client.createDeposition(metadata);
  }
  depositionId = String(deposition.id);
  // written before any file is sent: a run that dies now resumes on this deposition, never a second one
  await recordProgress(deps.db, submissionId, {
    progress: { deposition_id: depositionId },
    receipt: { kind: 'deposition', success: true, deposition: depositionId },
  });
  deposition = await client.updateMetadata(depositionId, metadata);

  const wanted = new Set(payload.map((p) => p.name));
  for (const f of deposition.files) {
    if (!wanted.has(f.filename)) await client.deleteFile(deposition, f.filename);
  }
  for (const p of payload) {
    const there = deposition.files.find((f) => f.filename === p.name);
    if (there && zenodoMd5(there.checksum) === p.md5) {
      if (p.kind === 'stored') await recordFileProgress(deps.db, submissionId, p.name, { state: 'sent', sent: p.size });
      continue;
    }
    await sendFile(deps, client, submissionId, study, deposition, p);
    await crashPoint('zenodo:file-uploaded');
  }

  const zenodo = { study: depositionId, state: deposition.state, doi: deposition.doi ?? '' };
  await saveAccessions(deps.db, study.id, (a) => merge(a, 'zenodo', zenodo));
  return { ...zenodo, deposition_id: depositionId, files: payload.map((p) => p.name) };
}

/** One file into the bucket, checked against the MD5 Zenodo answers; a corrupted transfer is sent once more. */
async function sendFile(
  deps: ZenodoDeps,
  client: ZenodoClient,
  submissionId: string,
  study: StudyRow,
  deposition: ZenodoDeposition,
  p: Payload,
) {
  const tracked = p.kind === 'stored';
  for (let attempt = 1; ; attempt++) {
    if (tracked) await recordFileProgress(deps.db, submissionId, p.name, { state: 'sending', sent: 0, size: p.size });
    const pending: Promise<void>[] = [];
    let last = 0;
    const content =
      p.kind === 'bytes'
        ? p.bytes
        : () => {
            let sent = 0;
            const chunks = (async function* () {
              for await (const chunk of await deps.files.read(study.profileId, p.name)) {
                sent += (chunk as Buffer).length;
                if (Date.now() - last >= PROGRESS_INTERVAL_MS) {
                  last = Date.now();
                  pending.push(recordFileProgress(deps.db, submissionId, p.name, { sent }));
                }
                yield chunk as Buffer;
              }
            })();
            return Readable.toWeb(Readable.from(chunks)) as unknown as ReadableStream<Uint8Array>;
          };
    const uploaded = await client.uploadFile(deposition, p.name, content, 'application/octet-stream', p.size);
    await Promise.all(pending);
    const theirs = zenodoMd5(uploaded.checksum);
    if (!theirs || theirs === p.md5) {
      if (tracked) await recordFileProgress(deps.db, submissionId, p.name, { state: 'sent', sent: p.size });
      return;
    }
    if (attempt >= 2) {
      const error = `Zenodo received ${p.name} with MD5 ${theirs}, not ${p.md5}, twice.`;
      if (tracked) await recordFileProgress(deps.db, submissionId, p.name, { state: 'failed', error });
      throw new RepositoryRefused('zenodo', error);
    }
  }
}
