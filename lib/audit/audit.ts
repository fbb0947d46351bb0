import { and, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import { profiles, samples, sampleUpdates, UPDATE_TYPES, type UpdateType } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { isUuid } from '@/lib/identifiers/contract';
import { AUDIT_COLUMNS, type AuditRecord } from '@/lib/query/contract';
import { type Page, parseProjects, parseSvcIds } from '@/lib/query/params';
import { type BatchQuery, fromUtcText, queryOf, textOf, utcText } from '@/lib/query/sql';
import { type PageRequest, type RowStream, summarisedRows, writtenRowStream } from '@/lib/query/stream';
import { ALL_PROJECTS, exportedFieldSet, updatableFields } from '@/lib/standards/fields';
import { jsonString } from '@/lib/standards/render';
import { csvCell } from '@/lib/values/csv';
import { formatUtc, parseDateRange } from '@/lib/values/dates';
import { humanList, type Raw, single, splitList } from '@/lib/values/lists';

/**
 * The audit trail (docs/api-behaviour.md §3.6, docs/tol-manifests.md §4.4): one output row per changed field, with the
 * sample's current identifiers. Never returned: who made the change (actor_id), and changes to fields that are not
 * exported (sensitive or internal fields), which are filtered in SQL so that number_found counts what is sent.
 */

// the CSV columns, where the tests know them from
export { AUDIT_COLUMNS };

/** Sample fields an audit query can be narrowed by (the spec's audit field enumeration). */
export const AUDIT_FIELDS = [
  'RACK_OR_PLATE_ID',
  'SPECIMEN_ID',
  'TUBE_OR_WELL_ID',
  'biosampleAccession',
  'public_name',
  'sraAccession',
] as const;
const AUDIT_FIELD_COLUMNS = {
  RACK_OR_PLATE_ID: samples.rackOrPlateId,
  SPECIMEN_ID: samples.specimenId,
  TUBE_OR_WELL_ID: samples.tubeOrWellId,
  biosampleAccession: samples.biosampleAccession,
  public_name: samples.publicName,
  sraAccession: samples.sraAccession,
} as const;

// what a batch selects, in this order: each row is read as an array of these (db/rows.ts, forEachValueRow)
const auditColumns = [
  sampleUpdates.field,
  sampleUpdates.oldValue,
  sampleUpdates.newValue,
  sampleUpdates.updateType,
  utcText(sampleUpdates.timeUpdated),
  sampleUpdates.manifestId,
  sampleUpdates.project,
  sampleUpdates.sampleId,
  samples.rackOrPlateId,
  samples.specimenId,
  samples.tubeOrWellId,
  samples.biosampleAccession,
  samples.publicName,
  samples.sraAccession,
  profiles.title,
  sampleUpdates.id,
];
type AuditRow = [
  field: string,
  oldValue: string | null,
  newValue: string | null,
  updateType: UpdateType,
  time: string,
  manifestId: string | null,
  project: string,
  sampleId: string,
  rack: string | null,
  specimen: string | null,
  tube: string | null,
  biosample: string | null,
  publicName: string | null,
  sra: string | null,
  profileTitle: string | null,
  id: number | string,
];

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
/** Each key of a record, in AUDIT_COLUMNS' order, with its value of a row: the record, its JSON and its CSV line. */
const VALUES: { readonly [K in keyof AuditRecord]: (r: AuditRow) => AuditRecord[K] } = {
  field: (r) => text(r[0]),
  outdated_value: (r) => text(r[1]),
  updated_value: (r) => text(r[2]),
  update_type: (r) => r[3],
  time_updated: (r) => formatUtc(r[4]),
  RACK_OR_PLATE_ID: (r) => text(r[8]),
  SPECIMEN_ID: (r) => text(r[9]),
  TUBE_OR_WELL_ID: (r) => text(r[10]),
  biosampleAccession: (r) => text(r[11]),
  manifest_id: (r) => text(r[5]),
  public_name: (r) => text(r[12]),
  sraAccession: (r) => text(r[13]),
  // rows are field updates; the reference's removal and truncation logs have no counterpart here
  svc_audit_type: () => 'update_log',
  svc_id: (r) => text(r[7]),
  svc_profile_title: (r) => text(r[14]),
  tol_project: (r) => text(r[6]).toUpperCase(),
};
// each key with its JSON prefix and its value's function, in AUDIT_COLUMNS' order
const KEYS = AUDIT_COLUMNS.map((key, i) => ({
  key,
  prefix: `${i ? ',' : '{'}${JSON.stringify(key)}:`,
  value: VALUES[key] as (r: AuditRow) => string,
}));

const toRecord = (r: AuditRow): AuditRecord => {
  const record: Record<string, string> = {};
  for (const { key, value } of KEYS) record[key] = value(r);
  return record as AuditRecord;
};

/**
 * `JSON.stringify(toRecord(r))`, without the record: in the service's profile, going through JSON.stringify and the
 * async generators around it cost a large share of writing an audit (docs/benchmarks.md).
 */
const auditJson = (r: AuditRow): string => {
  let json = '';
  for (const { prefix, value } of KEYS) json += prefix + jsonString(value(r));
  return `${json}}`;
};

const auditCsv = (r: AuditRow): string => `${KEYS.map(({ value }) => csvCell(value(r))).join(',')}\n`;

/**
 * `field = any('{…}'::text[])`, a constant rendered once: as `field in ($1, …, $n)` every audit query had Drizzle
 * build, and the driver send, one parameter per exported field. The names are the standards' own (lib/standards),
 * quoted as an array literal inside a string literal.
 */
let exportedOnlySql: SQL | null = null;
const exportedOnly = () => {
  if (!exportedOnlySql) {
    const elements = [...exportedFieldSet()].map((f) => `"${f.replace(/[\\"]/g, '\\$&')}"`).join(',');
    exportedOnlySql = sql`${sampleUpdates.field} = any(${sql.raw(`'{${elements.replace(/'/g, "''")}}'::text[]`)})`;
  }
  return exportedOnlySql;
};

// a batch's text around its condition, built once: Drizzle built the select, its joins and the mapping of its rows on
// every request, a large share of the service's CPU on the audit endpoints under load
let batchText: { head: string; order: string } | null = null;
const auditBatchText = () => {
  batchText ??= {
    head: textOf(
      sql`select ${sql.join(auditColumns, sql`, `)} from ${sampleUpdates} left join ${samples} on ${samples.id} = ${sampleUpdates.sampleId} left join ${profiles} on ${profiles.id} = ${samples.profileId} where ${exportedOnly()} and `,
    ),
    order: textOf(sql` order by ${sampleUpdates.timeUpdated} desc, ${sampleUpdates.id} desc`),
  };
  return batchText;
};

type AuditKey = { id: number; time: string };

/** One keyset batch of the audit rows matching `where`, newest change first: exported so that a test can EXPLAIN it. */
export function auditBatchQuery(where: SQL | undefined, { after, limit, offset }: PageRequest<AuditKey>): BatchQuery {
  const { head, order } = auditBatchText();
  const position = after ? sql`(${sampleUpdates.timeUpdated}, ${sampleUpdates.id}) < (${fromUtcText(after.time)}, ${after.id})` : undefined;
  const query = sql`${sql.raw(head)}${and(where, position) ?? sql`true`}${sql.raw(order)} limit ${limit} offset ${offset}`;
  return { toSQL: () => queryOf(query) };
}

// one manifest's first batch, the commonest audit query (audit/sample/manifest_id), as a text made once: building its
// condition and statement with Drizzle on each request cost a visible share of the answer (docs/benchmarks.md)
let oneManifestText: string | null = null;
/** exported so that a test can EXPLAIN it */
export const oneManifestFirstBatch =
  (manifestId: string) =>
  ({ after, limit, offset }: PageRequest<AuditKey>): BatchQuery | null => {
    if (after) return null;
    if (!oneManifestText) {
      const { head, order } = auditBatchText();
      oneManifestText = `${head}${textOf(sql`${sampleUpdates.manifestId}`)} = $1${order} limit $2 offset $3`;
    }
    const query = { sql: oneManifestText, params: [manifestId, limit, offset] };
    return { toSQL: () => query };
  };

/**
 * Audit rows matching `where`, newest change first, streamed in keyset batches on (time_updated, id); `first`, when it
 * gives one, is the statement of a batch (the same rows as `where` would read).
 */
export async function auditStream(
  db: Db,
  where: SQL | undefined,
  page: Page,
  first?: (req: PageRequest<AuditKey>) => BatchQuery | null,
): Promise<RowStream<AuditRecord>> {
  const { summary, batches, whole } = await summarisedRows<AuditRow, AuditKey, number>(
    async (req) => {
      const rows: AuditRow[] = [];
      await forEachValueRow(db, first?.(req) ?? auditBatchQuery(where, req), (values) => rows.push(values as AuditRow));
      return rows;
    },
    (r) => ({ id: Number(r[15]), time: r[4] }),
    page,
    {
      of: (all) => all.length,
      query: async () =>
        Number((await db.select({ n: sql<number>`count(*)::int` }).from(sampleUpdates).where(and(exportedOnly(), where)))[0]?.n ?? 0),
    },
  );
  return writtenRowStream(summary, AUDIT_COLUMNS, { batches, whole }, { json: auditJson, csv: auditCsv }, toRecord);
}

/** GET audit/samples?svc_id=&project=&updatable_field= */
export function auditOfSamples(
  db: Db,
  input: { svcIds: Raw; project: Raw; updatableField: Raw; page: Page },
): Promise<RowStream<AuditRecord>> {
  const ids = splitList(input.svcIds).length ? parseSvcIds(input.svcIds, () => "Invalid 'svc_id'(s) provided!") : [];
  const projects = parseProjects(input.project, 'project', { required: false });
  const field = single(input.updatableField);
  if (field !== undefined) {
    // the reference took any string; a field that can never be updated is a mistake worth telling
    const allowed = updatableFields(projects.length ? projects : ALL_PROJECTS, 'tol');
    if (!allowed.includes(field)) {
      throw Invalid(`Invalid value for 'updatable_field'. Must be one of: ${humanList(allowed, 'or')}`);
    }
  }
  return auditStream(
    db,
    and(
      ids.length ? inArray(sampleUpdates.sampleId, ids) : undefined,
      projects.length ? inArray(sampleUpdates.project, projects) : undefined,
      field !== undefined ? eq(sampleUpdates.field, field) : undefined,
    ),
    input.page,
  );
}

/** GET audit/sample/{from}/{to}: only the changes made in [from, to) (the reference sent whole histories, docs/api-behaviour.md §5.15). */
export function auditBetween(db: Db, input: { from: string; to: string; page: Page }): Promise<RowStream<AuditRecord>> {
  const range = parseDateRange(input.from, input.to, true);
  return auditStream(db, and(gte(sampleUpdates.timeUpdated, range.from), lt(sampleUpdates.timeUpdated, range.to)), input.page);
}

/** GET audit/sample/manifest_id/{manifest_ids} */
export function auditOfManifests(db: Db, input: { manifestIds: Raw; page: Page }): Promise<RowStream<AuditRecord>> {
  const ids = splitList(input.manifestIds, { lower: true });
  if (!ids.length || ids.some((id) => !isUuid(id))) throw Invalid("Invalid 'manifest_id'(s) provided!");
  const [one] = ids;
  return auditStream(
    db,
    inArray(sampleUpdates.manifestId, ids),
    input.page,
    ids.length === 1 && one ? oneManifestFirstBatch(one) : undefined,
  );
}

/** GET audit/sample/update_type/{system|user}?project=… */
export function auditOfUpdateType(db: Db, input: { updateType: string; project: Raw; page: Page }): Promise<RowStream<AuditRecord>> {
  const type = input.updateType.trim().toLowerCase();
  if (!(UPDATE_TYPES as readonly string[]).includes(type)) {
    throw Invalid(`Invalid value for 'update_type'. Must be one of: ${humanList(UPDATE_TYPES, 'or')}`);
  }
  const projects = parseProjects(input.project, 'project', { required: false });
  return auditStream(
    db,
    and(eq(sampleUpdates.updateType, type as UpdateType), projects.length ? inArray(sampleUpdates.project, projects) : undefined),
    input.page,
  );
}

/** GET audit/sample/{field}/{field_value}: exact match, every sample with that value (docs/api-behaviour.md §5.15 Sensible). */
export function auditOfFieldValue(db: Db, input: { field: string; value: string; page: Page }): Promise<RowStream<AuditRecord>> {
  const field = AUDIT_FIELDS.find((f) => f.toLowerCase() === input.field.trim().toLowerCase());
  if (!field) throw Invalid(`Invalid 'field' provided! Must be one of: ${humanList(AUDIT_FIELDS, 'or')}`);
  const value = input.value.trim();
  const column = AUDIT_FIELD_COLUMNS[field];
  // accessions are stored upper case; a lower-case accession in the URL still finds them
  const wanted = field === 'biosampleAccession' || field === 'sraAccession' ? value.toUpperCase() : value;
  const ids = sql`select ${samples.id} from ${samples} where ${column} = ${wanted}`;
  return auditStream(db, sql`${sampleUpdates.sampleId} in (${ids})`, input.page);
}
