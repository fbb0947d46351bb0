import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, sampleUpdates } from '@/db/schema';
import { auditStream } from '@/lib/audit/audit';
import { Invalid } from '@/lib/errors';
import type { AuditRecord } from '@/lib/query/contract';
import type { RowStream } from '@/lib/query/stream';
import { exportedFieldSet } from '@/lib/standards/fields';
import { parseDate } from '@/lib/values/dates';
import { type AuditBrowseQuery, DEFAULT_PAGE } from './contract';

/**
 * The portal's audit browser (GET /api/audit/browse): the public audit endpoints each take one filter; the browser
 * combines them (date range, update type, project, field, one sample, tube or specimen) over the same audit stream, so
 * the rows, their order (newest change first), what is never shown (actors, sensitive fields) and number_found are the
 * audit API's.
 */

let fields: Map<string, string> | null = null;
/** Audit rows only list exported fields: the names a filter may use, matched in any case. */
const auditFieldNames = () => (fields ??= new Map([...exportedFieldSet()].map((f) => [f.toLowerCase(), f])));

export function browseAudit(db: Db, p: AuditBrowseQuery): Promise<RowStream<AuditRecord>> {
  let field: string | undefined;
  if (p.field !== undefined) {
    field = auditFieldNames().get(p.field.toLowerCase());
    if (!field) throw Invalid(`Unknown field: ${p.field}.`, [{ path: 'field', message: `Unknown field: ${p.field}.` }]);
  }
  // the schema has checked both dates
  const from = p.from ? parseDate(p.from) : null;
  const to = p.to ? parseDate(p.to) : null;
  const where = and(
    from ? gte(sampleUpdates.timeUpdated, from) : undefined,
    to ? lt(sampleUpdates.timeUpdated, to) : undefined,
    p.update_type ? eq(sampleUpdates.updateType, p.update_type) : undefined,
    p.project?.length ? inArray(sampleUpdates.project, p.project) : undefined,
    field ? eq(sampleUpdates.field, field) : undefined,
    p.svc_id ? eq(sampleUpdates.sampleId, p.svc_id) : undefined,
    // a tube or specimen is a column of the sample, not of the change: the samples it names come from samples_tube_idx
    // or samples_specimen_idx, and their changes from sample_updates_sample_idx, as GET /audit/sample/{field}/{value} does
    p.tube ? sql`${sampleUpdates.sampleId} in (select ${samples.id} from ${samples} where ${samples.tubeOrWellId} = ${p.tube})` : undefined,
    p.specimen
      ? sql`${sampleUpdates.sampleId} in (select ${samples.id} from ${samples} where ${samples.specimenId} = ${p.specimen})`
      : undefined,
  );
  const page = { limit: p.limit ?? (p.return_type === 'csv' ? undefined : DEFAULT_PAGE), offset: p.offset ?? 0 };
  return auditStream(db, where, page);
}

/** Field names the audit browser's picker offers, sorted case-insensitively. */
export const auditFieldChoices = (): string[] =>
  [...auditFieldNames().values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
