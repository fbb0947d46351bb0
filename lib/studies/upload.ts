import { isDeepStrictEqual } from 'node:util';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pLimit from 'p-limit';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { samples, studies, submissions } from '@/db/schema';
import { type ChecklistDefinition, getChecklistDefinition, requireSchema } from '@/lib/checklists/definitions';
import { mapLimit } from '@/lib/concurrency';
import type { Config } from '@/lib/config';
import { AppError, Conflict, Invalid, TooLarge, Unavailable, Unprocessable } from '@/lib/errors';
import { fileStore } from '@/lib/files/files';
import { getProfile } from '@/lib/profiles/profiles';
import { type EnaSampleLookup, enaSampleLookupFromConfig } from '@/lib/repositories/ena/samples';
import { RepositoryError } from '@/lib/repositories/errors';
import { olsFromConfig } from '@/lib/repositories/ols';
import type { UserRecord } from '@/lib/users/users';
import { accessionedRows } from './accessions';
import { fieldForHeader } from './layout';
import { ontologyVerdicts } from './ontology-terms';
import { biodataSamplesNamed } from './profile-samples';
import { type ParsedWorkbook, readStudyWorkbook } from './read';
import type { StudyRow, StudyScope } from './studies';
import { type KnownSample, type ReportEntry, type StudyComponents, type ValidationContext, validateStudy } from './validate';

// a study upload is answered in the request, as the reference's clients expect: workbooks are read as streams with
// their cells capped (lib/studies/read.ts), and at most two at once per process, so that a burst of large uploads
// waits its turn instead of multiplying the memory they take
const readingWorkbooks = pLimit(2);

export interface UploadInput extends StudyScope {
  checklistId?: string;
  file?: { name: string; bytes: Uint8Array };
}

export interface UploadResult {
  studyId: string;
  /** a new study, rather than a replaced one */
  created: boolean;
  /** false when the upload was identical to the stored study (nothing written) */
  changed: boolean;
  /** rows per component as stored */
  counts: Record<string, number>;
  warnings: ReportEntry[];
  study: StudyRow;
}

export const INVALID_SPREADSHEET = 'Spreadsheet is not valid, please check the errors in the manifest.';
/** the reference's success sentence, whatever the schema */
export const SAVED_MESSAGE = 'Single Cell records saved successfully.';

/**
 * Validates an uploaded study spreadsheet against its checklist and stores it: a new study, or the replacement of
 * the profile's study with the same study_id (docs/studies-and-checklists.md §9). Invalid content is 422 with the whole
 * report and nothing stored. A replacement keeps schema and checklist (409 otherwise), is refused while the study is
 * being submitted (409), and may not drop a row that a repository has accessioned (409).
 */
export async function uploadStudy(
  deps: { db: Db; config: Config; logger: Logger; enaSamples?: EnaSampleLookup },
  user: UserRecord,
  input: UploadInput,
): Promise<UploadResult> {
  const { db, config } = deps;
  const profile = await getProfile(db, user, input.profileId, 'contribute');
  const schema = requireSchema(input.schemaName);
  const file = input.file;
  if (!file?.bytes.byteLength) {
    throw Invalid('Please upload a manifest file.', [{ path: 'file', message: 'Required' }]);
  }
  if (!/\.xlsx?$/i.test(file.name.trim())) {
    throw new AppError('unsupported_media_type', 'Please make sure your manifest is in xlsx format', [
      { path: 'file', message: 'An .xlsx workbook is expected' },
    ]);
  }
  if (file.bytes.byteLength > config.UPLOAD_MAX_BYTES) {
    throw TooLarge(`The file is larger than the limit of ${config.UPLOAD_MAX_BYTES} bytes.`);
  }
  const def = await getChecklistDefinition(db, schema, input.checklistId);
  const parsed = await readingWorkbooks(() => readStudyWorkbook(file.bytes));

  const enaSamples = deps.enaSamples ?? enaSampleLookupFromConfig(config, db, deps.logger);
  const result = await validateStudy(def, parsed, {
    ...(await knownSamples(db, enaSamples, profile.id, biosampleAccessions(def, parsed))),
    ontology: await ontologyVerdicts(def, parsed, olsFromConfig(config, db, deps.logger), deps.logger),
    profileFiles: await profileFileNames(deps, profile.id),
  });
  if (result.errors.length || !result.studyId) {
    throw Unprocessable(INVALID_SPREADSHEET, { errors: result.errors, warnings: result.warnings });
  }
  const saved = await saveStudy(db, user, {
    profileId: profile.id,
    def,
    studyId: result.studyId,
    components: result.components,
  });
  return {
    ...saved,
    studyId: result.studyId,
    counts: Object.fromEntries(Object.entries(result.components).map(([k, v]) => [k, v.length])),
    warnings: result.warnings,
  };
}

/** Every biosample accession the workbook names, for one look-up. */
function biosampleAccessions(def: ChecklistDefinition, wb: ParsedWorkbook): string[] {
  const out = new Set<string>();
  for (const sheet of wb.sheets) {
    const component = def.components.find((c) => c.key === sheet.name.toLowerCase());
    if (!component?.fields.some((f) => f.type === 'BIOSAMPLEACCESSION_FIELD')) continue;
    for (const { col, header } of sheet.columns) {
      if (fieldForHeader(component.fields, header)?.type !== 'BIOSAMPLEACCESSION_FIELD') continue;
      for (const r of sheet.rows) {
        const v = r.cells.get(col);
        if (v) out.add(v);
      }
    }
  }
  return [...out];
}

// ENA look-ups in flight at once for one sheet
const ENA_CONCURRENCY = 8;

/**
 * The samples a sheet's biosample accessions name: the profile's own (registered from its manifests or its sample
 * sheets), else what ENA holds under that accession. A value naming a sample of the profile that is not registered
 * yet (its alias or svc_id) is set apart, for the rules to say to register it first; accessions nobody knows are left
 * out, which the rules report on their rows. An unreachable ENA is a 503: the sheet cannot be judged, and nothing is
 * stored.
 */
async function knownSamples(
  db: Db,
  ena: EnaSampleLookup,
  profileId: string,
  accessions: string[],
): Promise<Pick<ValidationContext, 'samples' | 'unregistered'>> {
  const known = new Map<string, KnownSample>();
  const unregistered = new Map<string, { alias: string; status: string }>();
  if (!accessions.length) return { samples: known, unregistered };
  const rows = await db
    .select({
      accession: samples.biosampleAccession,
      taxonId: samples.taxonId,
      scientificName: samples.scientificName,
      fields: samples.fields,
    })
    .from(samples)
    .where(and(eq(samples.profileId, profileId), inArray(samples.biosampleAccession, accessions)));
  for (const r of rows) {
    // selected by accession, so each has one
    if (r.accession !== null)
      known.set(r.accession, { taxonId: r.taxonId, scientificName: r.scientificName, fields: r.fields, source: 'profile' });
  }
  const biodata = await biodataSamplesNamed(
    db,
    profileId,
    accessions.filter((a) => !known.has(a)),
  );
  for (const a of accessions) {
    const b = biodata.get(a.trim().toLowerCase());
    if (!b || known.has(a)) continue;
    if (b.biosampleAccession === a) {
      known.set(a, { taxonId: b.taxonId, scientificName: b.scientificName, fields: b.fields, source: 'profile' });
    } else if (!b.biosampleAccession) {
      unregistered.set(a.trim().toLowerCase(), { alias: b.alias, status: b.status });
    }
  }
  const elsewhere = accessions.filter((a) => !known.has(a) && !unregistered.has(a.trim().toLowerCase()));
  try {
    const found = await mapLimit(elsewhere, ENA_CONCURRENCY, (a) => ena.byAccession(a));
    for (const [i, accession] of elsewhere.entries()) {
      const record = found[i];
      if (record) known.set(accession, { taxonId: record.taxonId, scientificName: record.scientificName, fields: {}, source: 'ena' });
    }
  } catch (err) {
    if (!(err instanceof RepositoryError)) throw err;
    throw Unavailable(
      `ENA could not be reached to look up the BioSample accessions of the sheet (${err.message}). Nothing was ` +
        'stored; upload the sheet again in a few minutes.',
    );
  }
  return { samples: known, unregistered };
}

/** Names of the profile's data files; undefined (no file warnings) when the store cannot be listed. */
async function profileFileNames(deps: { db: Db; config: Config; logger: Logger }, profileId: string): Promise<Set<string> | undefined> {
  try {
    return new Set((await fileStore(deps).list(profileId)).map((f) => f.fileName));
  } catch (err) {
    // the check only produces warnings; an unreachable store must not block the upload, but it is seen
    deps.logger.warn({ err, profile_id: profileId }, 'the profile’s data files could not be listed; the study is checked without them');
    return undefined;
  }
}

async function saveStudy(
  db: Db,
  user: UserRecord,
  input: { profileId: string; def: ChecklistDefinition; studyId: string; components: StudyComponents },
): Promise<{ created: boolean; changed: boolean; study: StudyRow }> {
  const { profileId, def, studyId, components } = input;
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(studies)
      .values({
        profileId,
        schemaName: def.schemaName,
        checklistId: def.checklistId,
        studyId,
        components,
        createdBy: user.id,
      })
      .onConflictDoNothing({ target: [studies.profileId, studies.studyId] })
      .returning();
    if (inserted) return { created: true, changed: true, study: inserted };

    // the row lock makes a submission that starts now wait for this replacement, and vice versa
    const [existing] = await tx
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)))
      .for('update');
    if (!existing) throw Conflict(`Study ${studyId} was changed by another request; try again.`);
    if (existing.schemaName !== def.schemaName) {
      throw Conflict(`Study already exists with different schema: ${existing.schemaName}`);
    }
    if (existing.checklistId !== def.checklistId) {
      throw Conflict(`Study already exists with different checklist: ${existing.checklistId}`);
    }
    const [active] = await tx
      .select({ repository: submissions.repository })
      .from(submissions)
      .where(and(eq(submissions.studyRowId, existing.id), inArray(submissions.status, ['pending', 'processing'])))
      .limit(1);
    if (active) {
      throw Conflict(
        `Study ${studyId} is being submitted to ${active.repository}; it cannot be changed until the submission has finished.`,
      );
    }
    const dropped = droppedAccessionedRows(def, existing, components);
    if (dropped.length) throw Conflict(dropped.join('\n'));
    if (isDeepStrictEqual(existing.components, components)) return { created: false, changed: false, study: existing };
    const updated = one(
      await tx
        .update(studies)
        // the database's clock, which also stamps submissions: the listing compares the two
        .set({ components, updatedAt: sql`now()` })
        .where(eq(studies.id, existing.id))
        .returning(),
      'the study being updated',
    );
    return { created: false, changed: true, study: updated };
  });
}

/** `<component>: Cannot delete records with accession number : <ids>` for each component that would lose one. */
function droppedAccessionedRows(def: ChecklistDefinition, existing: StudyRow, components: StudyComponents): string[] {
  const out: string[] = [];
  for (const c of def.components) {
    const id = c.fields.find((f) => f.identifier);
    if (!id) continue;
    const kept = new Set((components[c.key] ?? []).map((r) => r[id.termName]));
    const lost = accessionedRows(existing.accessions, c).filter((rowId) => !kept.has(rowId));
    if (lost.length) out.push(`${c.key}: Cannot delete records with accession number : ${lost.join(', ')}`);
  }
  return out;
}
