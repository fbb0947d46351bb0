import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { validationReports } from '@/db/schema';
import { findDefinition, RULES, type RuleCode } from '@/lib/manifests';
import type { FieldDefinition } from '@/lib/manifests/contract';
import { findChecklist } from '@/lib/sample-checklists/store';
import type { UserRecord } from '@/lib/users/users';
import type { IssueGroup, IssueGroups, IssueSeverity, ReportIssue, ReportIssueFilter, ReportIssuesPage, ReportProject } from './contract';
import { getReportSummary, type ReportSummary } from './read';

/**
 * A report's issues as the report page reads them: grouped by severity, field and rule with counts, and a page at a
 * time, computed in the database from the stored lists, so a report of thousands of issues is never sent whole.
 */

/** A stored issue's rule is a catalogue code, unless the report predates it: then its code in words. */
const titleOf = (rule: string): string => (Object.hasOwn(RULES, rule) ? RULES[rule as RuleCode].title : rule.replace(/_/g, ' '));

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
  return issueGroupsOf(db, await getReportSummary(db, user, reportId), severity);
}

/** A report already read for its reader (its page reads it once for the summary and the groups), grouped as above. */
export async function issueGroupsOf(db: Db, report: ReportSummary, severity?: IssueSeverity): Promise<IssueGroups> {
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
  const fieldOf = await fieldsOfReport(db, report.project, report.version);
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
      expected: FORMAT_RULES.has(r.rule) ? (def?.expected ?? null) : null,
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
      tube: r.e.tube ?? null,
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

/** What a group of a field's issues says of the field: its allowed values, and what it expects in words. */
interface FieldHints {
  allowedValues?: string[] | null;
  expected?: string | null;
}

/** The fields of a report's manifest definition, or of its checklist for a biodata sample sheet. */
async function fieldsOfReport(db: Db, project: ReportProject, version: string): Promise<Map<string, FieldHints>> {
  if (project === 'biodata') {
    const checklist = await findChecklist(db, version).catch(() => null);
    return new Map(
      (checklist?.fields ?? []).map((f) => [
        f.name,
        { allowedValues: f.choices ?? null, expected: f.regex ? `a value matching ${f.regex}` : null },
      ]),
    );
  }
  const definition = findDefinition(project, version);
  return new Map<string, FieldHints>(
    definition?.fields.map((f: FieldDefinition) => [f.name, { allowedValues: f.allowedValues, expected: f.patternDescription }]) ?? [],
  );
}
