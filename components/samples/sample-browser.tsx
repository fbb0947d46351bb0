'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useDeferredValue, useMemo } from 'react';
import { CsvExport } from '@/components/ui/csv-export';
import { type Column, DataTable, type TableDefinition } from '@/components/ui/data-table';
import { CheckGroup, FieldNamePicker, FilterActions, InvalidFilter, RowsPerPage } from '@/components/ui/filter-fields';
import { FilterFold, filtersSet } from '@/components/ui/filter-fold';
import { useUrlFilter } from '@/components/ui/use-url-filter';
import { formatNumber } from '@/components/ui/words';
import type { SampleBrowsePage, SampleSort } from '@/lib/browse/contract';
import { BROWSE_PROJECTS, BROWSE_STANDARDS, BROWSE_STATUSES, DEFAULT_PAGE } from '@/lib/browse/lists';
import { api } from '@/lib/client/api';
import type { SampleRecord } from '@/lib/standards/contract';
import { SAMPLE_BROWSE_KEY, SAMPLE_BROWSE_PARAMS } from './sample-browse-query';
import styles from './sample-browser.module.css';
import { Cell, ON_PHONES, rank } from './sample-browser-cells';
import { statusWords } from './sample-state';

const browseRule = () => import('@/lib/browse/contract').then((c) => c.SampleBrowseQuerySchema);

/** What the filter form sets (sort, order and offset come from the table and the pager). */
const FORM = SAMPLE_BROWSE_PARAMS.filter(
  (p): p is Exclude<(typeof SAMPLE_BROWSE_PARAMS)[number], 'sort' | 'order' | 'offset'> => !['sort', 'order', 'offset'].includes(p),
);
/** What narrows the samples down, counted in the folded filters' summary (not the field names or rows per page). */
const FILTERS = ['profiles', 'project', 'status', 'manifest_id', 'sequencing_centre', 'taxon_id', 'scientific_name', 'contains'] as const;
/** The filters that are sets of checkboxes: a sample matches any value ticked. */
const CHOICES = [
  { legend: 'Project', name: 'project', values: BROWSE_PROJECTS, label: (p: string) => p.toUpperCase() },
  { legend: 'Status', name: 'status', values: BROWSE_STATUSES, label: statusWords },
] as const;

const SORT_LABELS: Record<SampleSort, string> = {
  time_created: 'creation time',
  svc_id: 'svc_id',
  project: 'project',
  status: 'status',
  taxon_id: 'taxon id',
  scientific_name: 'scientific name',
  tube: 'tube or well',
};

/** `centres`: every sequencing centre (lib/reference), retired ones included, for the centre filter. */
export function SampleBrowser({ fieldNames, centres }: { fieldNames: string[]; centres: { name: string; label: string }[] }) {
  const router = useRouter();
  const { q, qs, input, parsed, pathname, errorFor, href, fieldProps, problem, control, onSubmit, exportQs } = useUrlFilter({
    fetch: (search) => api.GET('/api/samples/browse', { querySerializer: () => search }),
    queryKey: SAMPLE_BROWSE_KEY,
    params: SAMPLE_BROWSE_PARAMS,
    form: FORM,
    rule: browseRule,
  });

  // a page of samples that arrives after the loading line is drawn in the background, in slices the browser can
  // interrupt (the same as DataTable's rows)
  const found = useDeferredValue(q.data);
  const current = parsed.success ? parsed.data : null;
  const selected = (name: 'project' | 'status') =>
    new Set(
      (input[name] ?? '')
        .toLowerCase()
        .split(',')
        .map((s) => s.trim()),
    );
  // parameters the form does not show (they come from the table headers and the pager, or a hand-edited link)
  const otherErrors = ['sort', 'order', 'offset'].flatMap((p) => errorFor(p) ?? []);

  return (
    <>
      <FilterFold set={filtersSet(input, FILTERS)} invalid={!parsed.success}>
        <form className="filters" onSubmit={onSubmit} aria-label="Filter samples" key={qs} noValidate>
          <label>
            Whose samples
            <select {...fieldProps('profiles')} defaultValue={input.profiles ?? 'all'}>
              <option value="mine">My profiles’ samples (mine and those shared with me)</option>
              <option value="all">Every sample the broker shows</option>
            </select>
            {problem('profiles')}
          </label>
          {CHOICES.map((c) => (
            <CheckGroup key={c.name} {...c} checked={selected(c.name)} problem={problem(c.name)} />
          ))}
          <label>
            Manifest id
            <input {...fieldProps('manifest_id')} defaultValue={input.manifest_id} placeholder="a UUID" spellCheck={false} />
            {problem('manifest_id')}
          </label>
          <label>
            Sequencing centre
            <select {...fieldProps('sequencing_centre')} defaultValue={input.sequencing_centre ?? ''}>
              <option value="">Any</option>
              {centres.map((c) => (
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
          <FieldNamePicker label="Search in field" none="Choose a field" names={fieldNames} control={control('field')} />
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
          <RowsPerPage control={control('limit')} />
          <FilterActions clearHref={pathname} errors={otherErrors} />
        </form>
      </FilterFold>

      {!parsed.success ? (
        <InvalidFilter />
      ) : q.isError && !found ? (
        <p role="alert" className="notice error">
          Could not load samples: {q.error.message}
        </p>
      ) : !found ? (
        <p aria-busy="true">Loading samples…</p>
      ) : (
        <Results
          page={found}
          updating={q.isFetching}
          sort={current?.sort ?? 'time_created'}
          order={current?.order ?? 'desc'}
          href={href}
          exportHref={`/api/samples/browse?${exportQs.toString()}`}
          onSort={(by, order) => router.push(href({ sort: by, order, offset: undefined }))}
        />
      )}
    </>
  );
}

interface Row {
  key: string;
  record: SampleRecord;
}

function Results({
  page,
  updating,
  sort,
  order,
  href,
  exportHref,
  onSort,
}: {
  page: SampleBrowsePage;
  updating: boolean;
  sort: SampleSort;
  order: 'asc' | 'desc';
  href: (changes: Record<string, string | undefined>) => string;
  exportHref: string;
  onSort: (by: string, order: 'asc' | 'desc') => void;
}) {
  const { data, number_found: total } = page;
  const shown = [...page.columns].sort((a, b) => rank(a.field) - rank(b.field));
  // the ToLID is in every record of the service's own names, though the API does not list it as a column
  if (page.standard === 'tol' && !shown.some((c) => c.field === 'public_name') && data.some((r) => r.public_name)) {
    const at = shown.findIndex((c) => rank(c.field) > rank('public_name'));
    shown.splice(at < 0 ? shown.length : at, 0, { field: 'public_name', key: 'public_name', label: 'ToLID' });
  }
  const svcKey = shown.find((c) => c.field === 'svc_id')?.key ?? 'svc_id';
  // the row opens from its tube, as people know a sample; from its svc_id in a standard that leaves the tube out
  const keyField = shown.some((c) => c.field === 'TUBE_OR_WELL_ID') ? 'TUBE_OR_WELL_ID' : 'svc_id';
  const columns = shown.map(
    (c): Column<Row> => ({
      // a sortable column goes by its sort key, which is what the URL and the table's sort name
      id: c.sort ?? c.key,
      header: c.field === 'public_name' ? 'ToLID' : c.key,
      sortable: Boolean(c.sort),
      key: c.field === keyField,
      nowrap: ['status', 'biosampleAccession', 'public_name', 'time_created'].includes(c.field),
      wideOnly: !ON_PHONES.has(c.field),
      cell: (row) => {
        if (c.field === keyField) {
          const id = row.record[svcKey];
          return id ? (
            <Link href={`/samples/${id}`} className={`mono ${styles.svc}`}>
              {row.record[c.key] || id}
            </Link>
          ) : (
            <span className="muted">Embargoed</span>
          );
        }
        return <Cell column={c} value={row.record[c.key]} />;
      },
    }),
  );
  const rows: Row[] = useMemo(
    () => data.map((record, i) => ({ key: record[svcKey] || `embargoed-${page.offset + i}`, record })),
    [data, svcKey, page.offset],
  );
  if (total === 0) {
    return (
      <p className="notice" role="status">
        No sample matches this filter.{' '}
        <Link href={href({ ...Object.fromEntries(SAMPLE_BROWSE_PARAMS.map((k) => [k, undefined])), profiles: 'all' })}>
          Show every sample
        </Link>
      </p>
    );
  }
  const table: TableDefinition<Row> = { noun: 'samples', rowKey: (r) => r.key, columns };
  return (
    <div>
      <div className="toolbar">
        <p role="status" style={{ margin: 0 }}>
          {formatNumber(total)} sample{total === 1 ? '' : 's'}, sorted by {SORT_LABELS[sort]} (
          {order === 'asc' ? 'ascending' : 'descending'}){updating && <span className="muted"> · updating…</span>}
        </p>
        <CsvExport href={exportHref} total={total} label="Export this filter as CSV" />
      </div>
      {data.some((r) => !r[svcKey]) && (
        <p className="muted">Rows marked “Embargoed” are samples under traditional-knowledge rights: their fields are not shown.</p>
      )}
      <DataTable
        caption={`Samples matching the filter; open a sample by its ${keyField === 'svc_id' ? 'svc_id' : 'tube or well'}`}
        table={table}
        rows={rows}
        loading={updating}
        sort={{ by: sort, order, onSort }}
        page={{
          offset: page.offset,
          limit: page.limit || DEFAULT_PAGE,
          total,
          hrefFor: (offset) => href({ offset: offset ? String(offset) : undefined }),
        }}
      />
    </div>
  );
}
