import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { validationReports } from '@/db/schema';
import { findDefinition, type RuleCode } from '@/lib/manifests';
import type {
  FieldDefinition,
  IssueGroup,
  IssueGroups,
  IssueSeverity,
  ReportIssue,
  ReportIssueFilter,
  ReportIssuesPage,
} from '@/lib/manifests/contract';
import type { UserRecord } from '@/lib/users/users';
import { getReportSummary } from './reports';

/**
 * A report's issues as the report page reads them: grouped by severity, field and rule with counts, and a page at a
 * time, computed in the database from the stored lists, so a report of thousands of issues is never sent whole.
 */

/** What each rule found, in words short enough for one line ("SPECIMEN_ID · not in the expected format · 42 rows"). */
const RULE_TITLES: Record<RuleCode | 'not_updatable', string> = {
  missing_column: 'a required column is missing',
  duplicate_column: 'two columns hold this field',
  unknown_column: 'not a field of this manifest (ignored)',
  header: 'header read under another spelling',
  empty: 'no data rows',
  too_many_rows: 'too many rows',
  template_prefill: 'rows with only template values (ignored)',
  mandatory: 'required but empty',
  vocabulary: 'not one of the allowed values',
  vocabulary_normalised: 'spelling replaced by the allowed value',
  pattern: 'not in the expected format',
  integer: 'not a whole number',
  number: 'not a number in the expected form',
  date: 'not a date in the expected format',
  date_future: 'a date in the future',
  date_order: 'preserved before it was collected',
  time: 'not a 24-hour time',
  coordinates: 'coordinate malformed or out of range',
  collection_location: 'does not start with a known country',
  url: 'not a valid URL',
  rack_tube_token: 'rack or tube given as a missing-value word',
  rack_tube_slash: 'rack or tube contains a slash',
  fluidx: 'not in FluidX format',
  rack_tube_duplicate: 'tube used by several rows without one TARGET',
  rack_tube_exists: 'tube belongs to a sample of another profile',
  orphan_symbiont: 'SYMBIONT without a TARGET in its tube',
  symbiont_overwrite: 'SYMBIONT values replaced by its TARGET’s',
  update_new_sample: 'a new sample in an update',
  update_symbiont: 'a SYMBIONT in an update',
  specimen_id: 'not in the expected format',
  specimen_taxon: 'specimen already used with another taxon',
  whole_organism_duplicate: 'WHOLE_ORGANISM twice for one specimen',
  barcoding_overwrite: 'barcoding fields set to NOT_APPLICABLE',
  original_location: 'original date without original location',
  erga_coordinates: 'coordinate groups do not agree',
  permit_filename: 'permit file name does not match REQUIRED',
  permit_conflict: 'rows of one specimen disagree on a permit',
  biobanking_voucher: 'biobanked without a voucher id',
  pop_genomics: 'does not fit a POP_GENOMICS profile',
  default_substituted: 'empty cell filled with its default',
  taxon_missing: 'neither TAXON_ID nor SCIENTIFIC_NAME',
  taxon_id_integer: 'TAXON_ID is not a whole number',
  name_unresolved: 'scientific name not found in the taxonomy',
  taxon_filled: 'TAXON_ID filled from the scientific name',
  taxon_not_found: 'taxon not found in the taxonomy',
  taxon_not_submittable: 'taxon not submittable to ENA',
  taxon_rank: 'taxon is not a species',
  taxon_not_binomial: 'taxon has no binomial name',
  taxon_mismatch: 'SCIENTIFIC_NAME and TAXON_ID disagree',
  taxon_synonym: 'synonym replaced by the official name',
  lineage: 'differs from the taxon’s lineage',
  lineage_filled: 'filled from the taxon’s lineage',
  // a re-upload changing a field that cannot change once the sample is registered (lib/samples/changes.ts)
  not_updatable: 'cannot change after registration',
};

const titleOf = (rule: string): string => (RULE_TITLES as Record<string, string>)[rule] ?? rule.replace(/_/g, ' ');

const VOCABULARY_RULES = new Set(['vocabulary', 'vocabulary_normalised']);
const FORMAT_RULES = new Set(['pattern', 'integer', 'number', 'date', 'time', 'coordinates', 'fluidx']);

/** Both lists of one report as (severity, issue, position) rows; errors sort before warnings. */
function issuesOf(reportId: string): SQL {
  return sql`(
    select 'error' as severity, 0 as rank, e, ord from ${validationReports} r, jsonb_array_elements(r.errors) with ordinality t(e, ord)
      where r.id = ${reportId}::uuid
    union all
    select 'warning', 1, e, ord from ${validationReports} r, jsonb_array_elements(r.warnings) with ordinality t(e, ord)
      where r.id = ${reportId}::uuid
  ) x`;
}

function filterOf(f: ReportIssueFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.severity) parts.push(sql`severity = ${f.severity}`);
  if (f.field !== undefined) parts.push(f.field === '' ? sql`e->>'field' is null` : sql`e->>'field' = ${f.field}`);
  if (f.rule) parts.push(sql`e->>'rule' = ${f.rule}`);
  return sql.join(parts, sql` and `);
}

/** The caller's report's issues grouped by severity, field and rule; the caller must be allowed to read the report. */
export async function reportIssueGroups(db: Db, user: UserRecord, reportId: string, severity?: IssueSeverity): Promise<IssueGroups> {
  const report = await getReportSummary(db, user, reportId);
  const rows = rowsOf<{
    severity: IssueSeverity;
    field: string | null;
    rule: string;
    column: string | null;
    n: number;
    rows: number;
    example: string;
  }>(
    await db.execute(sql`
      select severity, e->>'field' as field, e->>'rule' as rule, min(e->>'column') as column, count(*)::int as n,
        count(distinct e->'row')::int as rows, (array_agg(e->>'message' order by ord))[1] as example
      from ${issuesOf(report.id)}
      where ${filterOf({ severity })}
      group by severity, rank, e->>'field', e->>'rule'
      order by rank, count(*) desc, e->>'field' nulls first, e->>'rule'`),
  );
  const definition = findDefinition(report.project, report.version);
  const fieldOf = new Map<string, FieldDefinition>(definition?.fields.map((f) => [f.name, f]) ?? []);
  const groups: IssueGroup[] = rows.map((r) => {
    const def = r.field ? fieldOf.get(r.field) : undefined;
    return {
      severity: r.severity,
      field: r.field,
      column: r.column,
      rule: r.rule,
      title: titleOf(r.rule),
      count: r.n,
      rows: r.rows,
      allowed_values: VOCABULARY_RULES.has(r.rule) ? (def?.allowedValues ?? null) : null,
      expected: FORMAT_RULES.has(r.rule) ? (def?.patternDescription ?? null) : null,
      example: r.example,
    };
  });
  return { report_id: report.id, errors: report.summary.errors, warnings: report.summary.warnings, groups };
}

/** A page of the caller's report's issues matching the filter, errors first, each list in its stored order. */
export async function reportIssues(
  db: Db,
  user: UserRecord,
  reportId: string,
  filter: ReportIssueFilter & { limit: number; offset: number },
): Promise<ReportIssuesPage> {
  const report = await getReportSummary(db, user, reportId);
  const rows = rowsOf<{ severity: IssueSeverity; e: Omit<ReportIssue, 'severity'>; total: number }>(
    await db.execute(sql`
      select severity, e, count(*) over ()::int as total
      from ${issuesOf(report.id)}
      where ${filterOf(filter)}
      order by rank, ord
      limit ${filter.limit} offset ${filter.offset}`),
  );
  const total = rows[0]?.total ?? (filter.offset > 0 ? await countIssues(db, report.id, filter) : 0);
  return {
    report_id: report.id,
    number_found: total,
    data: rows.map((r) => ({
      row: r.e.row ?? null,
      column: r.e.column ?? null,
      field: r.e.field ?? null,
      value: r.e.value ?? null,
      rule: r.e.rule,
      message: r.e.message,
      severity: r.severity,
    })),
  };
}

/** The total of a filter whose page is past the end (the window count comes with rows only). */
async function countIssues(db: Db, reportId: string, filter: ReportIssueFilter): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from ${issuesOf(reportId)} where ${filterOf(filter)}`),
  );
  return row?.n ?? 0;
}
