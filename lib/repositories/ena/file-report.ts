import { z } from 'zod';
import { RepositoryProtocolError } from '../errors';

/**
 * Webin's reports service on the archiving of a run's or an analysis's data files (docs/repositories.md §2.2):
 * `GET {ENA_WEBIN_URL}/report/run-files/{ERR…}` and `…/report/analysis-files/{ERZ…}`, each a JSON array with one
 * `{"report": {…}}` row per file.
 *
 * ENA's guide (ena-docs.readthedocs.io, submit/general-guide/submissions-portal.html, "Run Files Report" and
 * "Analysis Files Report"; reports-service.html) says these reports exist and give each file's archival status, but
 * documents the JSON only in its Swagger page, which could not be consulted. The row read here is the shape the
 * brief for this client gave: `{"report": {"id", "fileName", "fileSize", "md5Checksum", "archiveStatus", "error"}}`.
 * Unknown members are ignored and every member but the name may be absent, so a differently filled answer still
 * reads; an unknown status reads as still processing, the one reading that never claims a file is safe or lost.
 */

export type ArchiveFileState = 'received' | 'processing' | 'archived' | 'failed';

export interface ArchiveFile {
  /** the name as submitted (the path in the upload area) */
  name: string;
  size?: number;
  md5?: string;
  state: ArchiveFileState;
  /** failed: ENA's reason */
  error?: string;
}

const text = z.string().nullish();
const size = z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/).transform(Number)]).nullish();

const FileReportRow = z.object({
  report: z.object({
    id: text,
    fileName: z.string().min(1),
    fileSize: size,
    md5Checksum: text,
    archiveStatus: text,
    error: text,
  }),
});
const FileReport = z.array(FileReportRow);

/**
 * ENA's status words onto the four states. Webin's portal shows "active", "completed" and "failed" for files; the
 * words of the archive itself are matched too. Anything else is `processing`.
 */
export function archiveStateOf(status: string | null | undefined): ArchiveFileState {
  const s = (status ?? '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if (/^(ARCHIVED|COMPLETED?|ARCHIVE_COMPLETED?|SUCCESS(FUL)?)$/.test(s)) return 'archived';
  if (/FAIL|ERROR|REJECT/.test(s)) return 'failed';
  if (/^(RECEIVED|UPLOADED|SUBMITTED|PENDING|QUEUED|WAITING)$/.test(s)) return 'received';
  return 'processing';
}

/** The files of one report answer; anything but the documented JSON is a RepositoryProtocolError. */
export function parseFileReport(body: string): ArchiveFile[] {
  let rows: z.infer<typeof FileReport>;
  try {
    rows = FileReport.parse(body.trim() ? JSON.parse(body) : []);
  } catch (err) {
    throw new RepositoryProtocolError('ena', `ENA answered a files report that is not the expected JSON: ${(err as Error).message}`, body);
  }
  return rows.map(({ report: r }) => {
    const state = archiveStateOf(r.archiveStatus);
    return {
      name: r.fileName,
      ...(r.fileSize != null && { size: r.fileSize }),
      ...(r.md5Checksum && { md5: r.md5Checksum.toLowerCase() }),
      state,
      ...(r.error?.trim() && { error: r.error.trim() }),
    };
  });
}
