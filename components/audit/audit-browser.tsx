'use client';

import Link from 'next/link';
import { useMemo } from 'react';
import { StatusWords, statusWords } from '@/components/samples/sample-state';
import { CsvExport } from '@/components/ui/csv-export';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { CheckGroup, FieldNamePicker, FilterActions, InvalidFilter, RowsPerPage } from '@/components/ui/filter-fields';
import { FilterFold, filtersSet } from '@/components/ui/filter-fold';
import { UpdateTypeBadge } from '@/components/ui/update-type';
import { useUrlFilter } from '@/components/ui/use-url-filter';
import { When } from '@/components/ui/when';
import { formatNumber } from '@/components/ui/words';
import { BROWSE_PROJECTS, DEFAULT_PAGE } from '@/lib/browse/lists';
import { api } from '@/lib/client/api';
import type { AuditRecord } from '@/lib/query/contract';
import { AUDIT_PARAMS, AUDIT_QUERY_KEY } from './audit-query';

const auditRule = () => import('@/lib/browse/contract').then((c) => c.AuditBrowseQuerySchema);

const FORM = ['svc_id', 'tube', 'specimen', 'from', 'to', 'update_type', 'project', 'field', 'limit'] as const;

const shown = (v: string) => (v ? v : <span className="muted">(empty)</span>);

type Row = { record: AuditRecord; n: number };

// audit records carry no id, and one change can repeat in time and field: a row is its place in the whole list
const table: TableDefinition<Row> = {
  noun: 'changes',
  rowKey: (row) => String(row.n),
  columns: [
    {
      id: 'sample',
      header: 'Sample',
      key: true,
      cell: ({ record: r }) => (
        <>
          <Link href={`/samples/${r.svc_id}`} className="mono">
            {r.TUBE_OR_WELL_ID || r.SPECIMEN_ID || r.svc_id}
          </Link>
          {r.svc_profile_title && <div className="muted">{r.svc_profile_title}</div>}
        </>
      ),
    },
    { id: 'when', header: 'When', cell: ({ record: r }) => <When value={r.time_updated} /> },
    { id: 'update_type', header: 'Made by', cell: ({ record: r }) => <UpdateTypeBadge type={r.update_type} /> },
    { id: 'field', header: 'Field', cell: ({ record: r }) => <span className="mono">{r.field}</span> },
    {
      id: 'change',
      header: 'Old → new',
      cell: ({ record: r }) =>
        // a change of state in the words and colours every page uses (components/samples/sample-state.tsx)
        r.field === 'status' ? (
          <span className="change">
            {r.outdated_value ? statusWords(r.outdated_value) : '(none)'} → <StatusWords status={r.updated_value} />
          </span>
        ) : (
          <span className="change">
            <del>{shown(r.outdated_value)}</del> → <ins>{shown(r.updated_value)}</ins>
          </span>
        ),
    },
    { id: 'project', header: 'Project', cell: ({ record: r }) => r.tol_project.toUpperCase() },
  ],
};

export function AuditBrowser({ fieldNames }: { fieldNames: string[] }) {
  const { q, qs, input, parsed, pathname, errorFor, href, fieldProps, problem, control, onSubmit, exportQs } = useUrlFilter({
    fetch: (search) => api.GET('/api/audit/browse', { querySerializer: () => search }),
    queryKey: AUDIT_QUERY_KEY,
    params: AUDIT_PARAMS,
    form: FORM,
    rule: auditRule,
    idPrefix: 'audit',
  });
  const offsetError = errorFor('offset');
  const records = q.data?.data;

  const projects = new Set(
    (input.project ?? '')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim()),
  );
  const offset = parsed.success ? (parsed.data.offset ?? 0) : 0;
  const limit = parsed.success ? (parsed.data.limit ?? DEFAULT_PAGE) : DEFAULT_PAGE;
  // the same rows from one drawing to the next, or the table would draw them again in the background (DataTable)
  const rows = useMemo(() => records?.map((record, i) => ({ record, n: offset + i })), [records, offset]);

  return (
    <>
      <FilterFold
        set={filtersSet(input, ['svc_id', 'tube', 'specimen', 'from', 'to', 'update_type', 'project', 'field'])}
        invalid={!parsed.success}
      >
        <form className="filters" onSubmit={onSubmit} aria-label="Filter changes" key={qs} noValidate>
          <label>
            Sample (svc_id)
            <input
              type="text"
              {...fieldProps('svc_id')}
              defaultValue={input.svc_id}
              className="mono"
              spellCheck={false}
              autoComplete="off"
            />
            {problem('svc_id')}
          </label>
          <label>
            Tube or well (exactly)
            <input type="text" {...fieldProps('tube')} defaultValue={input.tube} className="mono" spellCheck={false} autoComplete="off" />
            {problem('tube')}
          </label>
          <label>
            Specimen (exactly)
            <input
              type="text"
              {...fieldProps('specimen')}
              defaultValue={input.specimen}
              className="mono"
              spellCheck={false}
              autoComplete="off"
            />
            {problem('specimen')}
          </label>
          <label>
            From (this day included)
            <input type="date" {...fieldProps('from')} defaultValue={input.from} />
            {problem('from')}
          </label>
          <label>
            Until (before this day)
            <input type="date" {...fieldProps('to')} defaultValue={input.to} />
            {problem('to')}
          </label>
          <label>
            Made by
            <select {...fieldProps('update_type')} defaultValue={input.update_type ?? ''}>
              <option value="">Users and the system</option>
              <option value="user">Users (a re-uploaded manifest)</option>
              <option value="system">The system (accessions, status)</option>
            </select>
            {problem('update_type')}
          </label>
          <FieldNamePicker label="Field" none="Any field" names={fieldNames} control={control('field')} />
          <CheckGroup
            legend="Project"
            name="project"
            values={BROWSE_PROJECTS}
            checked={projects}
            problem={problem('project')}
            label={(p) => p.toUpperCase()}
          />
          <RowsPerPage control={control('limit')} />
          <FilterActions clearHref={pathname} errors={offsetError ? [offsetError] : []} />
        </form>
      </FilterFold>

      {!parsed.success ? (
        <InvalidFilter />
      ) : (
        <div>
          {q.data && q.data.number_found > 0 && (
            <div className="toolbar">
              <p role="status" style={{ margin: 0 }}>
                {formatNumber(q.data.number_found)} change{q.data.number_found === 1 ? '' : 's'}, newest first
                {q.isFetching && <span className="muted"> · updating…</span>}
              </p>
              <CsvExport href={`/api/audit/browse?${exportQs.toString()}`} total={q.data.number_found} label="Export this filter as CSV" />
            </div>
          )}
          <DataTable
            caption="Changes to samples, newest first"
            table={table}
            rows={rows}
            query={q}
            empty={
              <p className="notice" role="status">
                No change matches this filter.
              </p>
            }
            page={
              q.data && {
                offset,
                limit,
                total: q.data.number_found,
                hrefFor: (o) => href({ offset: o ? String(o) : undefined }),
              }
            }
          />
        </div>
      )}
    </>
  );
}
