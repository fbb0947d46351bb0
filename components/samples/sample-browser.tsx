'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import type { MouseEvent } from 'react';
import { StatusBadge } from '@/components/manifests/status-badge';
import { CsvExport } from '@/components/ui/csv-export';
import { CheckGroup, FilterActions, RowsPerPage } from '@/components/ui/filter-fields';
import { Pager } from '@/components/ui/pager';
import { useUrlFilter } from '@/components/ui/use-url-filter';
import {
  BROWSE_PROJECTS,
  BROWSE_STANDARDS,
  BROWSE_STATUSES,
  DEFAULT_PAGE,
  sampleBrowseParams,
  type SampleSort,
} from '@/lib/browse/params';
import { SEQUENCING_CENTRES } from '@/lib/profiles/enums';

interface Column {
  field: string;
  key: string;
  label: string;
  sort?: SampleSort;
}
interface BrowsePage {
  number_found: number;
  data: Record<string, string>[];
  columns: Column[];
  sort: SampleSort;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Everything the URL may carry, in the endpoint's names. */
const PARAMS = [
  'project',
  'status',
  'manifest_id',
  'sequencing_centre',
  'taxon_id',
  'scientific_name',
  'field',
  'contains',
  'standard',
  'sort',
  'order',
  'limit',
  'offset',
] as const;
/** What the filter form sets (sort, order and offset come from the table and the pager). */
const FORM = ['project', 'status', 'manifest_id', 'sequencing_centre', 'taxon_id', 'scientific_name', 'field', 'contains', 'standard', 'limit'] as const;
const SORT_LABELS: Record<SampleSort, string> = {
  time_created: 'creation time',
  svc_id: 'svc_id',
  project: 'project',
  status: 'status',
  taxon_id: 'taxon id',
  scientific_name: 'scientific name',
  tube: 'tube or well',
};

const when = (v: string) => v.replace('T', ' ').replace(/(\.\d+)?\+00:00$/, ' UTC');

function Cell({ column, value }: { column: Column; value: string | undefined }) {
  if (value === undefined || value === '') return <span className="muted">—</span>;
  if (column.field === 'status') return <StatusBadge status={value} />;
  if (column.field === 'SCIENTIFIC_NAME') return <em>{value}</em>;
  if (column.field === 'time_created') return <>{when(value)}</>;
  return <>{value}</>;
}

export function SampleBrowser({ fieldNames }: { fieldNames: string[] }) {
  const router = useRouter();
  const { q, qs, input, parsed, pathname, search, errorFor, href, fieldProps, problem, onSubmit, exportQs } = useUrlFilter<
    (typeof PARAMS)[number],
    BrowsePage,
    typeof sampleBrowseParams
  >({ endpoint: '/api/samples/browse', queryKey: 'sample-browse', params: PARAMS, form: FORM, schema: sampleBrowseParams });

  const current = parsed.success ? parsed.data : null;
  const selected = (name: 'project' | 'status') => new Set((input[name] ?? '').toLowerCase().split(',').map((s) => s.trim()));
  // parameters the form does not show (they come from the table headers and the pager, or a hand-edited link)
  const otherErrors = ['sort', 'order', 'offset'].flatMap((p) => errorFor(p) ?? []);

  return (
    <>
      <form className="filters" onSubmit={onSubmit} aria-label="Filter samples" key={qs} noValidate>
        <CheckGroup legend="Project" name="project" values={BROWSE_PROJECTS} checked={selected('project')} problem={problem('project')} label={(p) => p.toUpperCase()} />
        <CheckGroup legend="Status" name="status" values={BROWSE_STATUSES} checked={selected('status')} problem={problem('status')} />
        <label>
          Manifest id
          <input {...fieldProps('manifest_id')} defaultValue={input.manifest_id} placeholder="a UUID" spellCheck={false} />
          {problem('manifest_id')}
        </label>
        <label>
          Sequencing centre
          <select {...fieldProps('sequencing_centre')} defaultValue={input.sequencing_centre ?? ''}>
            <option value="">Any</option>
            {SEQUENCING_CENTRES.map((c) => (
              <option key={c.name} value={c.name}>
                {c.label}
              </option>
            ))}
          </select>
          {problem('sequencing_centre')}
        </label>
        <label>
          Taxon id
          <input {...fieldProps('taxon_id')} defaultValue={input.taxon_id} inputMode="numeric" placeholder="e.g. 104452, 7227" />
          {problem('taxon_id')}
        </label>
        <label>
          Scientific name contains
          <input {...fieldProps('scientific_name')} defaultValue={input.scientific_name} placeholder="e.g. Aglais" />
          {problem('scientific_name')}
        </label>
        <label>
          Search in field
          <select {...fieldProps('field')} defaultValue={input.field ?? ''}>
            <option value="">Choose a field</option>
            {fieldNames.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
          {problem('field')}
        </label>
        <label>
          Field contains
          <input {...fieldProps('contains')} defaultValue={input.contains} placeholder="any case; commas: any of" />
          {problem('contains')}
        </label>
        <label>
          Field names
          <select {...fieldProps('standard')} defaultValue={input.standard ?? 'tol'}>
            {BROWSE_STANDARDS.map((s) => (
              <option key={s} value={s}>
                {s === 'tol' ? 'Tree of Life (tol)' : s === 'dwc' ? 'Darwin Core (dwc)' : s === 'ena' ? 'ENA (ena)' : 'MIxS (mixs)'}
              </option>
            ))}
          </select>
          {problem('standard')}
        </label>
        <RowsPerPage fieldProps={fieldProps('limit')} value={input.limit} problem={problem('limit')} />
        <FilterActions clearHref={pathname} errors={otherErrors} />
      </form>

      {!parsed.success ? (
        <p role="alert" className="notice error">
          This link’s filter is not valid; correct the fields marked above.
        </p>
      ) : q.isPending ? (
        <p aria-busy="true">Loading samples…</p>
      ) : q.isError ? (
        <p role="alert" className="notice error">
          Could not load samples: {q.error.message}
        </p>
      ) : (
        <Results
          page={q.data}
          updating={q.isFetching}
          sort={current?.sort ?? 'time_created'}
          order={current?.order ?? 'desc'}
          href={href}
          exportHref={`/api/samples/browse?${exportQs.toString()}`}
          onOpen={(id) => router.push(`/samples/${id}`)}
        />
      )}
    </>
  );
}

function Results({
  page,
  updating,
  sort,
  order,
  href,
  exportHref,
  onOpen,
}: {
  page: BrowsePage;
  updating: boolean;
  sort: SampleSort;
  order: 'asc' | 'desc';
  href: (changes: Record<string, string | undefined>) => string;
  exportHref: string;
  onOpen: (svcId: string) => void;
}) {
  const { columns, data, number_found: total } = page;
  if (total === 0) {
    return (
      <p className="notice" role="status">
        No sample matches this filter. <Link href={href(Object.fromEntries(PARAMS.map((k) => [k, undefined])))}>Show every sample</Link>
      </p>
    );
  }
  // a click anywhere on a row opens the sample; the link in its first cell is there for keyboards and new tabs
  const openRow = (e: MouseEvent<HTMLTableRowElement>, id: string) => {
    if ((e.target as Element).closest('a, button, input, select')) return;
    onOpen(id);
  };
  const sortHref = (s: SampleSort) =>
    href({ sort: s, order: s === sort ? (order === 'desc' ? 'asc' : 'desc') : s === 'time_created' ? 'desc' : 'asc', offset: undefined });
  return (
    <div aria-busy={updating || undefined}>
      <div className="toolbar">
        <p role="status" style={{ margin: 0 }}>
          {total} sample{total === 1 ? '' : 's'}, sorted by {SORT_LABELS[sort]} ({order === 'asc' ? 'ascending' : 'descending'})
          {updating && <span className="muted"> · updating…</span>}
        </p>
        <CsvExport href={exportHref} total={total} label="Export this filter as CSV" />
      </div>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Samples matching the filter; select a row to open the sample</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={c.sort && c.sort === sort ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                  title={c.key === c.field ? c.label : `${c.label} (${c.field})`}
                >
                  {c.sort ? (
                    <Link className="sort" href={sortHref(c.sort)}>
                      {c.key}
                      <span aria-hidden="true">{c.sort === sort ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                      <span className="visually-hidden">, sort</span>
                    </Link>
                  ) : (
                    c.key
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((r, i) => {
              const id = r.svc_id;
              if (!id) {
                return (
                  <tr key={`embargoed-${i}`}>
                    <td colSpan={columns.length} className="muted">
                      Embargoed: traditional-knowledge rights apply to this sample
                    </td>
                  </tr>
                );
              }
              return (
                <tr key={id} className="clickable" onClick={(e) => openRow(e, id)}>
                  {columns.map((c, j) => (
                    <td key={c.key} className={c.field === 'svc_id' || c.field === 'manifest_id' ? 'mono' : undefined}>
                      {j === 0 ? <Link href={`/samples/${id}`}>{r[c.key] ?? id}</Link> : <Cell column={c} value={r[c.key]} />}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager
        offset={page.offset}
        limit={page.limit || DEFAULT_PAGE}
        total={total}
        shown={data.length}
        noun="samples"
        hrefFor={(offset) => href({ offset: offset ? String(offset) : undefined })}
      />
    </div>
  );
}
