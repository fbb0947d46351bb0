import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { one, rowsOf } from '@/db/rows';
import { manifests, profiles, type SampleStatus, samples, sampleUpdates, type TolProject, validationReports } from '@/db/schema';
import { writeConfirmedSamples } from '@/lib/biodata-samples/confirm';
import { biodataFingerprint } from '@/lib/biodata-samples/stored';
import { crashPoint } from '@/lib/crash-points';
import { Conflict } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import { tellManagersOfManifest } from '@/lib/mail/messages';
import type { MailContext } from '@/lib/mail/outbox';
import type { FieldChange, ReportRows, StoredReportRows } from '@/lib/manifests/contract';
import { rowsOfStored, type StoredRowValues, storedFieldsOf, storedRowsOf, storedRowValues } from '@/lib/manifests/stored-rows';
import { attachPermits, missingPermits } from '@/lib/permits/permits';
import { checkProfileAccess, getProfile } from '@/lib/profiles/profiles';
import { approvalsKeptOnUpdate } from '@/lib/reference/read';
import { CLEARS_PUBLIC_NAME } from '@/lib/samples/changes';
import { changeOf, newSampleId, TYPED_COLUMN_FIELDS, typedColumns } from '@/lib/samples/columns';
import { samplesFingerprint } from '@/lib/samples/existing';
import { RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID, rightsProjectField, traditionalKnowledgeProject } from '@/lib/samples/rights-hold';
import type { UserRecord } from '@/lib/users/users';
import type { ManifestConfirmed } from './contract';
import { getReport, reportStoredRows } from './read';

/** The fields of a new manifest's row that its sample's typed columns and first state are made of. */
const ROW_STATE_FIELDS = [...TYPED_COLUMN_FIELDS, RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID];

/**
 * An ERGA sample naming a traditional-knowledge project waits, private, until its rights are cleared
 * (lib/samples/rights-hold.ts); `cleared`: the Local Contexts Hub already said that project is public.
 */
function initialStatus(project: TolProject, fields: Record<string, string>, cleared = false): SampleStatus {
  return !cleared && traditionalKnowledgeProject(project, fields) ? 'private' : 'pending';
}

/**
 * Turns a complete, error-free report into samples, in one transaction: a new manifest with its samples, or, for a
 * re-upload, the field changes with one `user` audit row each. Exactly one confirmation of a report wins; a report
 * whose profile's samples changed since it was validated must be validated again.
 */
export async function confirmReport(
  db: Db,
  user: UserRecord,
  reportId: string,
  deps: { mail: MailContext; jobs: JobQueue },
): Promise<ManifestConfirmed> {
  const { mail } = deps;
  const report = await getReport(db, user, reportId);
  // a viewer reads the report but may not confirm it (403), whatever state it is in
  await getProfile(db, user, report.profileId, 'contribute');
  if (report.status !== 'complete') throw Conflict(`The report is ${report.status}: only a complete report can be confirmed.`);
  if (report.errors.length) throw Conflict('The report has errors: fix the manifest and validate it again.');
  if (report.confirmedManifestId) throw Conflict(`This report was already confirmed (manifest ${report.confirmedManifestId}).`);
  const stored = await reportStoredRows(db, report.id);
  if (!stored) throw Conflict('The report holds no rows to confirm: validate the manifest again.');
  const project = report.project;
  if (project === 'biodata') return confirmSampleSheet(db, user, report, rowsOfStored(stored), deps.jobs);
  // a re-upload's rows name the samples they change; of a new manifest's rows only the fields its samples' typed
  // columns and first state are made of are taken here, and each row is copied whole within the database below
  const read: { update: StoredReportRows['matches'] } | { create: StoredRowValues } =
    report.mode === 'update' ? { update: stored.matches } : { create: storedRowValues(stored, ROW_STATE_FIELDS) };
  const missing = await missingPermits(db, report);
  if (missing.length) {
    throw Conflict(`Upload the permit files this manifest names before confirming it: ${missing.join(', ')}.`);
  }
  // the approvals a changed re-upload keeps (docs/tol-manifests.md §2.6), read before the transaction on the service's
  // own handle
  const kept = report.mode === 'update' ? await approvalsKeptOnUpdate(db) : new Set<string>();

  return db.transaction(async (tx) => {
    // one confirmation per profile at a time: the fingerprint check and the writes see the same samples
    const [locked] = await tx.select().from(profiles).where(eq(profiles.id, report.profileId)).for('update');
    // checked again under the lock: a share removed meanwhile is the report's 404
    const profile = await checkProfileAccess(tx, locked, user, 'contribute');
    // a double-clicked confirm's twin waited for the lock above: its truth is "already confirmed", not "changed"
    await refuseIfConfirmed(tx, report.id);
    if ((await samplesFingerprint(tx, report.profileId)) !== report.samplesFingerprint) {
      throw Conflict("The profile's samples changed since this report was made: validate the manifest again.");
    }
    const manifestId = 'update' in read ? await manifestOfUpdate(tx, read.update) : randomUUID();
    const [won] = await tx
      .update(validationReports)
      .set({ confirmedManifestId: manifestId, confirmedAt: sql`now()` })
      .where(and(eq(validationReports.id, report.id), isNull(validationReports.confirmedManifestId)))
      .returning({ id: validationReports.id });
    if (!won) {
      await refuseIfConfirmed(tx, report.id);
      throw Conflict('This report was already confirmed.');
    }
    await attachPermits(tx, report.id, manifestId);

    const context = {
      sequencingCentres: profile.sequencingCentres,
      associatedTolProjects: profile.associatedTypes,
    };
    const event = {
      project,
      profileId: profile.id,
      profileTitle: profile.title,
      manifestId,
      fileName: report.fileName,
      uploader: user.username,
      associatedTypes: profile.associatedTypes,
    };
    if ('update' in read) {
      const updated = await applyChanges(tx, user, report.changes, context, kept);
      await tx.update(manifests).set({ updatedAt: sql`now()` }).where(eq(manifests.id, manifestId));
      if (updated) await tellManagersOfManifest(tx, mail, { ...event, created: 0, updated });
      return { manifest_id: manifestId, created: 0, updated };
    }

    await tx.insert(manifests).values({
      id: manifestId,
      profileId: profile.id,
      project,
      version: report.version,
      sequencingCentres: profile.sequencingCentres,
      fileName: report.fileName,
      reportId: report.id,
      createdBy: user.id,
    });
    // What differs from row to row, made here; each sample's fields are the report's stored row itself, taken in the
    // database. Sent back as parameters, 10,000 rows' fields were parsed again there as 20 batches of JSON, which cost
    // more than reading the sheet (docs/benchmarks.md, "Big sheets").
    const { fieldCount, rows } = read.create;
    const perRow = rows.map((r) => ({
      n: r.n,
      id: newSampleId(),
      status: initialStatus(project, r.values),
      ...typedColumns(r.values),
    }));
    // the statement below sorts the built samples by row and reads the stored rows through a function scan: at the
    // default work_mem a big manifest took both through temporary files (docs/benchmarks.md, "Big sheets")
    await tx.execute(sql`set local work_mem = '64MB'`);
    const inserted = await tx.execute(sql`
      with written as (insert into ${samples} (id, manifest_id, profile_id, project, manifest_version, status, fields, specimen_id,
        rack_or_plate_id, tube_or_well_id, taxon_id, scientific_name, symbiont, sequencing_centres, associated_tol_projects,
        created_by)
      select s.id, ${manifestId}::uuid, ${profile.id}, ${project}, ${report.version}, s.status, ${storedFieldsOf(fieldCount)},
        s."specimenId", s."rackOrPlateId", s."tubeOrWellId", s."taxonId", s."scientificName", s.symbiont,
        ${sql.param(context.sequencingCentres)}::text[], ${sql.param(context.associatedTolProjects)}::text[], ${user.id}::int
      from ${validationReports} v ${storedRowsOf(sql`v.rows`)}
        join jsonb_to_recordset(${JSON.stringify(perRow)}::jsonb) as s(n bigint, id text, status text, "specimenId" text,
          "rackOrPlateId" text, "tubeOrWellId" text, "taxonId" text, "scientificName" text, symbiont text) on s.n = r.n
      where v.id = ${report.id}::uuid
      order by s.n
      returning 1)
      select count(*)::int as n from written`);
    const written = Number(one(rowsOf<{ n: number }>(inserted), 'the count of samples written').n);
    // the report's rows were locked with it above, so they are the ones read: anything else is a fault of ours
    if (written !== perRow.length) throw new Error(`confirm wrote ${written} samples of ${perRow.length}`);
    await crashPoint('confirm:samples-written');
    await tellManagersOfManifest(tx, mail, { ...event, created: perRow.length, updated: 0 });
    return { manifest_id: manifestId, created: perRow.length, updated: 0 };
  });
}

/**
 * A biodata profile's sample sheet into its samples (lib/biodata-samples/confirm.ts), under the same lock and checks
 * as a manifest: the confirmed sheet is named by its report's id, where a manifest's samples share a manifest's.
 */
async function confirmSampleSheet(
  db: Db,
  user: UserRecord,
  report: { id: string; profileId: string; version: string; samplesFingerprint: string | null; changes: FieldChange[] },
  stored: ReportRows,
  jobs: JobQueue,
): Promise<ManifestConfirmed> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(profiles).where(eq(profiles.id, report.profileId)).for('update');
    await checkProfileAccess(tx, locked, user, 'contribute');
    await refuseIfConfirmed(tx, report.id);
    if ((await biodataFingerprint(tx, report.profileId)) !== report.samplesFingerprint) {
      throw Conflict("The profile's samples changed since this sheet was checked: validate it again.");
    }
    const [won] = await tx
      .update(validationReports)
      .set({ confirmedManifestId: report.id, confirmedAt: sql`now()` })
      .where(and(eq(validationReports.id, report.id), isNull(validationReports.confirmedManifestId)))
      .returning({ id: validationReports.id });
    if (!won) throw Conflict('This report was already confirmed.');
    const written = await writeConfirmedSamples(tx, jobs, {
      userId: user.id,
      profileId: report.profileId,
      checklistId: report.version,
      reportId: report.id,
      rows: stored.normalised,
      matches: stored.matches,
      changes: report.changes,
    });
    return { manifest_id: report.id, ...written };
  });
}

async function manifestOfUpdate(db: Db, matches: { sampleId: string }[]): Promise<string> {
  const first = matches[0];
  if (!first) throw Conflict('The report matches no stored sample: validate the manifest again.');
  const [row] = await db.select({ manifestId: samples.manifestId }).from(samples).where(eq(samples.id, first.sampleId));
  if (!row) throw Conflict("The profile's samples changed since this report was made: validate the manifest again.");
  return row.manifestId;
}

/** 409 naming the manifest when the report was confirmed since it was read. */
async function refuseIfConfirmed(db: Db, reportId: string): Promise<void> {
  const [row] = await db
    .select({ manifestId: validationReports.confirmedManifestId })
    .from(validationReports)
    .where(eq(validationReports.id, reportId));
  if (row?.manifestId) throw Conflict(`This report was already confirmed (manifest ${row.manifestId}).`);
}

/** Writes each changed field with its audit row; a changed sample goes back to review. Returns samples updated. */
async function applyChanges(
  db: Db,
  user: UserRecord,
  changes: FieldChange[],
  context: { sequencingCentres: string[]; associatedTolProjects: string[] },
  /** the associated types whose approval a change keeps (approval_required_on_update false) */
  kept: ReadonlySet<string>,
): Promise<number> {
  const bySample = new Map<string, FieldChange[]>();
  for (const c of changes) bySample.set(c.sampleId, [...(bySample.get(c.sampleId) ?? []), c]);
  for (const [sampleId, list] of bySample) {
    const [sample] = await db.select().from(samples).where(eq(samples.id, sampleId)).for('update');
    if (!sample) throw Conflict("The profile's samples changed since this report was made: validate the manifest again.");
    const fields = { ...sample.fields };
    for (const c of list) fields[c.field] = c.newValue;
    const clearPublicName = list.some((c) => CLEARS_PUBLIC_NAME.has(c.field)) && sample.publicName;
    const approvals = Object.fromEntries(Object.entries(sample.approvals).filter(([type]) => kept.has(type)));
    // a clearance is of one hub project: another project id must be cleared afresh (and looked up at the next check)
    const rightsProjectChanged = rightsProjectField(fields) !== rightsProjectField(sample.fields);
    const cleared = sample.rightsClearedAt !== null && !rightsProjectChanged;
    const status = sample.status === 'sending' ? sample.status : initialStatus(sample.project, fields, cleared);
    await db
      .update(samples)
      .set({
        fields,
        ...typedColumns(fields),
        ...context,
        status,
        approvals,
        rejectionReason: null,
        ...(clearPublicName && { publicName: null }),
        ...(rightsProjectChanged && { rightsClearedAt: null, rightsCheckedAt: null }),
        timeUpdated: sql`now()`,
      })
      .where(eq(samples.id, sampleId));
    const audit = list.map((c) => ({ field: c.field, oldValue: c.oldValue, newValue: c.newValue }));
    if (clearPublicName) audit.push({ field: 'public_name', oldValue: sample.publicName ?? '', newValue: '' });
    if (status !== sample.status) audit.push({ field: 'status', oldValue: sample.status, newValue: status });
    await db.insert(sampleUpdates).values(audit.map((a) => ({ ...changeOf(sample, 'user'), actorId: user.id, ...a })));
  }
  return bySample.size;
}
