'use client';

import Link from 'next/link';
import { CsvExport } from '@/components/ui/csv-export';
import { CheckGroup, FilterActions, RowsPerPage } from '@/components/ui/filter-fields';
import { Pager } from '@/components/ui/pager';
import { useUrlFilter } from '@/components/ui/use-url-filter';
import { UpdateTypeBadge } from '@/components/ui/update-type';
import { auditBrowseParams, BROWSE_PROJECTS, DEFAULT_PAGE } from '@/lib/browse/params';

interface AuditRow {
  field: string;
  outdated_value: string;
  updated_value: string;
  update_type: 'user' | 'system';
  time_updated: string;
  TUBE_OR_WELL_ID: string;
  SPECIMEN_ID: string;
  svc_id: string;
  svc_profile_title: string;
  tol_project: string;
}
interface AuditPage {
  number_found: number;
  data: AuditRow[];
}

const PARAMS = ['from', 'to', 'update_type', 'project', 'field', 'limit', 'offset'] as const;
const FORM = ['from', 'to', 'update_type', 'project', 'field', 'limit'] as const;

const when = (v: string) => v.replace('T', ' ').replace(/(\.\d+)?\+00:00$/, ' UTC');
const shown = (v: string) => (v ? v : <span className="muted">(empty)</span>);

export function AuditBrowser({ fieldNames }: { fieldNames: string[] }) {
  const { q, qs, input, parsed, pathname, errorFor, href, fieldProps, problem, onSubmit, exportQs } = useUrlFilter<
    (typeof PARAMS)[number],
    AuditPage,
    typeof auditBrowseParams
  >({ endpoint: '/api/audit/browse', queryKey: 'audit-browse', params: PARAMS, form: FORM, schema: auditBrowseParams, idPrefix: 'audit' });

  const projects = new Set((input.project ?? '').toLowerCase().split(',').map((s) => s.trim()));
  const offset = parsed.success ? (parsed.data.offset ?? 0) : 0;
  const limit = parsed.success ? (parsed.data.limit ?? DEFAULT_PAGE) : DEFAULT_PAGE;

  return (
    <>
      <form className="filters" onSubmit={onSubmit} aria-label="Filter changes" key={qs} noValidate>
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
        <label>
          Field
          <select {...fieldProps('field')} defaultValue={input.field ?? ''}>
            <option value="">Any field</option>
            {fieldNames.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          {problem('field')}
        </label>
        <CheckGroup legend="Project" name="project" values={BROWSE_PROJECTS} checked={projects} problem={problem('project')} label={(p) => p.toUpperCase()} />
        <RowsPerPage fieldProps={fieldProps('limit')} value={input.limit} problem={problem('limit')} />
        <FilterActions clearHref={pathname} errors={errorFor('offset') ? [errorFor('offset')!] : []} />
      </form>

      {!parsed.success ? (
        <p role="alert" className="notice error">
          This link’s filter is not valid; correct the fields marked above.
        </p>
      ) : q.isPending ? (
        <p aria-busy="true">Loading changes…</p>
      ) : q.isError ? (
        <p role="alert" className="notice error">
          Could not load changes: {q.error.message}
        </p>
      ) : q.data.number_found === 0 ? (
        <p className="notice" role="status">
          No change matches this filter.
        </p>
      ) : (
        <div aria-busy={q.isFetching || undefined}>
          <div className="toolbar">
            <p role="status" style={{ margin: 0 }}>
              {q.data.number_found} change{q.data.number_found === 1 ? '' : 's'}, newest first
              {q.isFetching && <span className="muted"> · updating…</span>}
            </p>
            <CsvExport href={`/api/audit/browse?${exportQs.toString()}`} total={q.data.number_found} label="Export this filter as CSV" />
          </div>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Changes to samples, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Made by</th>
                  <th scope="col">Sample</th>
                  <th scope="col">Project</th>
                  <th scope="col">Field</th>
                  <th scope="col">Old → new</th>
                </tr>
              </thead>
              <tbody>
                {q.data.data.map((r, i) => (
                  <tr key={`${r.svc_id}-${r.time_updated}-${r.field}-${i}`}>
                    <td>{when(r.time_updated)}</td>
                    <td>
                      <UpdateTypeBadge type={r.update_type} />
                    </td>
                    <td>
                      <Link href={`/samples/${r.svc_id}`} className="mono">
                        {r.TUBE_OR_WELL_ID || r.SPECIMEN_ID || r.svc_id}
                      </Link>
                      {r.svc_profile_title && <div className="muted">{r.svc_profile_title}</div>}
                    </td>
                    <td>{r.tol_project}</td>
                    <td className="mono">{r.field}</td>
                    <td className="change">
                      <del>{shown(r.outdated_value)}</del> → <ins>{shown(r.updated_value)}</ins>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            offset={offset}
            limit={limit}
            total={q.data.number_found}
            shown={q.data.data.length}
            noun="changes"
            hrefFor={(o) => href({ offset: o ? String(o) : undefined })}
          />
        </div>
      )}
    </>
  );
}
