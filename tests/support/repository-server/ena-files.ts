import type { EnaState } from './ena';
import { type Incoming, json, type Outgoing, text } from './http';

/**
 * Webin's reports on the archiving of data files: `GET /report/run-files/{ERR…}` and `/report/analysis-files/{ERZ…}`,
 * a JSON array of one `{"report": {…}}` row per file, in the shape lib/repositories/ena/file-report.ts reads. ENA
 * archives a file some time after the submission that names it, and may fail to (a bad gzip, a truncated upload);
 * here every file of an accepted RUN or ANALYSIS is PROCESSING until a test moves it with `archive` or `fail`:
 *   server.ena.files.archive('ERZ70001')                       every file of the analysis
 *   server.ena.files.fail('ERR70002', 'gzip: unexpected end of file', 'sub/reads/a_R1.fastq.gz')   one file
 */

export type FileKind = 'run' | 'analysis';
export type ArchiveStatus = 'PROCESSING' | 'ARCHIVED' | 'FAILED';

export interface ArchivedFile {
  fileName: string;
  fileSize?: number;
  md5Checksum: string;
  archiveStatus: ArchiveStatus;
  error?: string;
}

export class FileArchive {
  private readonly byAccession = new Map<string, ArchivedFile[]>();
  /** each read of a files report, with the accession asked */
  readonly reads: { account: string; kind: FileKind; accession: string; at: Date }[] = [];

  /** The stand-in's own call when it accepts a RUN or an ANALYSIS: its files, each PROCESSING. */
  register(accession: string, files: Omit<ArchivedFile, 'archiveStatus' | 'error'>[]): void {
    this.byAccession.set(
      accession,
      files.map((f) => ({ ...f, archiveStatus: 'PROCESSING' })),
    );
  }

  /** The files of a run or analysis as they stand; empty for an accession with none. */
  of(accession: string): readonly ArchivedFile[] {
    return this.byAccession.get(accession) ?? [];
  }

  /** Test control: the named file, or every file, of the run or analysis is archived. */
  archive(accession: string, fileName?: string): this {
    for (const f of this.pick(accession, fileName)) {
      f.archiveStatus = 'ARCHIVED';
      delete f.error;
    }
    return this;
  }

  /** Test control: the named file, or every file, of the run or analysis failed archiving, ENA saying `error`. */
  fail(accession: string, error: string, fileName?: string): this {
    for (const f of this.pick(accession, fileName)) {
      f.archiveStatus = 'FAILED';
      f.error = error;
    }
    return this;
  }

  /** A control naming what the stand-in never accepted is a mistake in the test: it fails there, not later. */
  private pick(accession: string, fileName: string | undefined): ArchivedFile[] {
    const files = this.byAccession.get(accession);
    if (!files) throw new Error(`the ENA stand-in holds no files for ${accession}`);
    const picked = fileName === undefined ? files : files.filter((f) => f.fileName === fileName);
    if (!picked.length) throw new Error(`${accession} has no file ${fileName}`);
    return picked;
  }
}

/** `GET /report/{run|analysis}-files/{accession}` for an authenticated account: only its own runs and analyses. */
export function reportFiles(state: EnaState, account: string, incoming: Incoming, kind: FileKind, accession: string): Outgoing {
  if (incoming.method !== 'GET') return text(405, 'Method not allowed');
  state.files.reads.push({ account, kind, accession, at: new Date() });
  const type = kind === 'run' ? 'RUN' : 'ANALYSIS';
  // as the samples report does, an accession the account does not hold is left out rather than refused
  const own = state.objects(account).some((o) => o.type === type && o.accession === accession);
  const files = own ? state.files.of(accession) : [];
  return json(
    200,
    files.map((f) => ({
      report: {
        id: accession,
        fileName: f.fileName,
        ...(f.fileSize === undefined ? {} : { fileSize: f.fileSize }),
        md5Checksum: f.md5Checksum,
        archiveStatus: f.archiveStatus,
        error: f.error ?? null,
      },
    })),
  );
}
