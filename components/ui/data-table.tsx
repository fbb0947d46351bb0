'use client';

import { type ReactNode, useDeferredValue, useEffect, useRef } from 'react';
import { TableScroll } from '@/components/ui/table-scroll';
import styles from './data-table.module.css';
import { Pager } from './pager';

/**
 * The portal's one table: rows come a page at a time from the server (paged and sorted there), with loading, empty and error states, the key column sticky while the table scrolls sideways inside
 * its own box, and sortable headers that say which way they sort. Below about 600 px the rows become cards: each
 * cell under its column's name (data-label), the key column as the card's heading (app/globals.css). Pages and sort live in the URL (the caller's
 * `hrefFor` / `onSort`), so every view of a list has its own address.
 */

export interface Column<Row> {
  id: string;
  header: string;
  cell: (row: Row) => ReactNode;
  /** the server can sort on this column */
  sortable?: boolean;
  /** the column that names the row: kept in view when the table scrolls sideways */
  key?: boolean;
  /** numbers and dates line up on the right */
  numeric?: boolean;
  /** a narrow column never wraps its content */
  nowrap?: boolean;
  /** shown in the table, left out of a phone's card to keep it short (the row's own page has it) */
  wideOnly?: boolean;
}

export interface TablePage {
  offset: number;
  limit: number;
  total: number;
  hrefFor: (offset: number) => string;
}

export interface TableSort {
  by: string;
  order: 'asc' | 'desc';
  onSort: (by: string, order: 'asc' | 'desc') => void;
}

/** Rows that can be ticked (e.g. samples to decide on): a checkbox per row and one in the header for all of them. */
export interface TableSelection<Row> {
  /** the keys (rowKey) of the ticked rows; may hold keys of rows of other tables or pages */
  selected: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  /** the accessible name of a row's checkbox, e.g. "Select sample FD00000001" */
  label: (row: Row) => string;
  /** the accessible name of the header's checkbox, e.g. "Select all 12 samples of beetles.xlsx" */
  allLabel: string;
  /** the keys the header's checkbox ticks and unticks (default: the rows shown), e.g. rows not shown yet */
  allKeys?: readonly string[];
  /** a row that cannot be ticked gets no checkbox */
  selectable?: (row: Row) => boolean;
}

/** What a table shows of its rows, declared once beside their columns: what they are, their key and the columns. */
export interface TableDefinition<Row> {
  /** what the rows are, plural, for the pager and the empty state */
  noun: string;
  /** a table shown in one place can say there what it is, and what to say when it has no rows */
  caption?: string;
  empty?: ReactNode;
  rowKey: (row: Row) => string;
  columns: Column<Row>[];
}

/** A table shown in one place, which says there what it is. */
export type CaptionedTable<Row> = TableDefinition<Row> & { caption: string };

/** Every table has a caption: given where it is shown, or by its definition. */
type Captioned<Row> = { caption: string; table: TableDefinition<Row> } | { caption?: undefined; table: CaptionedTable<Row> };

export type DataTableProps<Row> = Captioned<Row> & {
  rows: Row[] | undefined;
  /** the query the rows come from (TanStack Query's result): busy while it fetches, its error shown in place */
  query?: { isFetching: boolean; error: Error | null };
  loading?: boolean;
  error?: string | null;
  empty?: ReactNode;
  page?: TablePage;
  sort?: TableSort;
  /** a row opens something (its page): the whole row is a target, and Enter on it works too */
  onRowClick?: (row: Row) => void;
  /** extra content under a row (e.g. its receipts), shown when the row says so */
  detail?: (row: Row) => ReactNode | null;
  /** a checkbox column before the others */
  selection?: TableSelection<Row>;
};

export function DataTable<Row>({
  caption: givenCaption,
  table,
  rows: givenRows,
  query,
  loading = query?.isFetching,
  error = query?.error?.message ?? null,
  empty = table.empty,
  page,
  sort,
  onRowClick,
  detail,
  selection,
}: DataTableProps<Row>) {
  // rows that arrive after the table is shown (a query's answer) are drawn in the background, in slices the browser
  // can interrupt, while the table keeps showing what it showed: a page of rows is not one long task on a phone
  const rows = useDeferredValue(givenRows);
  const drawing = rows !== givenRows;
  const { columns, rowKey, noun } = table;
  const caption = givenCaption ?? table.caption;

  if (error) {
    return (
      <p role="alert" className="notice error">
        Could not load the {noun}: {error}
      </p>
    );
  }
  if ((loading || drawing) && !rows) {
    return (
      <p aria-busy="true" className="muted">
        Loading {noun}…
      </p>
    );
  }
  if (!rows?.length && !(page && page.offset > 0)) {
    return <div className="muted">{empty ?? `No ${noun}.`}</div>;
  }

  const ticks = selection ? selectionState(selection, rows ?? [], rowKey) : null;
  const pager = page && (
    <Pager offset={page.offset} limit={page.limit} total={page.total} shown={rows?.length ?? 0} noun={noun} hrefFor={page.hrefFor} />
  );
  return (
    <div className={`data-table${selection ? ` ${styles.selectable}` : ''}`} aria-busy={loading || drawing ? 'true' : undefined}>
      {pager}
      <TableScroll label={caption}>
        <table>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {selection && ticks ? (
                <th scope="col" className={styles.select}>
                  <Checkbox
                    label={selection.allLabel}
                    checked={ticks.all}
                    indeterminate={ticks.some && !ticks.all}
                    disabled={!ticks.keys.length}
                    onChange={(on) => selection.onChange(ticks.toggleAll(on))}
                  />
                </th>
              ) : null}
              {columns.map((col) => {
                const sorted = sort && sort.by === col.id ? sort.order : null;
                return (
                  <th
                    key={col.id}
                    scope="col"
                    className={cellClass(col)}
                    aria-sort={sorted ? (sorted === 'asc' ? 'ascending' : 'descending') : undefined}
                  >
                    {col.sortable && sort ? (
                      <button
                        type="button"
                        className="sort"
                        onClick={() => sort.onSort(col.id, sorted === 'asc' ? 'desc' : 'asc')}
                        title={`Sort by ${col.header}`}
                      >
                        {col.header}
                        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ' ↕'}</span>
                      </button>
                    ) : (
                      col.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {(rows ?? []).map((row) => {
              const id = rowKey(row);
              const more = detail?.(row);
              return (
                <RowGroup key={id}>
                  <tr
                    className={onRowClick ? 'clickable' : undefined}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                    onKeyDown={
                      onRowClick
                        ? (e) => {
                            if (e.key === 'Enter') onRowClick(row);
                          }
                        : undefined
                    }
                    tabIndex={onRowClick ? 0 : undefined}
                  >
                    {selection ? (
                      <td className={styles.select}>
                        {(selection.selectable?.(row) ?? true) ? (
                          <Checkbox
                            label={selection.label(row)}
                            checked={selection.selected.has(id)}
                            onChange={(on) => selection.onChange(toggled(selection.selected, [id], on))}
                          />
                        ) : null}
                      </td>
                    ) : null}
                    {columns.map((col) =>
                      col.key ? (
                        <th key={col.id} scope="row" className={cellClass(col)}>
                          {col.cell(row)}
                        </th>
                      ) : (
                        <td key={col.id} className={cellClass(col)} data-label={col.header}>
                          {col.cell(row)}
                        </td>
                      ),
                    )}
                  </tr>
                  {more ? (
                    <tr className="detail-row">
                      <td colSpan={columns.length + (selection ? 1 : 0)}>{more}</td>
                    </tr>
                  ) : null}
                </RowGroup>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {page && page.total > page.limit ? pager : null}
    </div>
  );
}

const RowGroup = ({ children }: { children: ReactNode }) => <>{children}</>;

const toggled = (selected: ReadonlySet<string>, keys: readonly string[], on: boolean): Set<string> => {
  const next = new Set(selected);
  for (const k of keys) {
    if (on) next.add(k);
    else next.delete(k);
  }
  return next;
};

function selectionState<Row>(selection: TableSelection<Row>, rows: Row[], rowKey: (row: Row) => string) {
  const keys = selection.allKeys ?? rows.filter((r) => selection.selectable?.(r) ?? true).map(rowKey);
  const ticked = keys.filter((k) => selection.selected.has(k)).length;
  return {
    keys,
    all: keys.length > 0 && ticked === keys.length,
    some: ticked > 0,
    toggleAll: (on: boolean) => toggled(selection.selected, keys, on),
  };
}

/** A checkbox that can also show "some of them" (indeterminate), which only the DOM property can set. */
function Checkbox(props: {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  disabled?: boolean;
  onChange: (on: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = Boolean(props.indeterminate);
  }, [props.indeterminate]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={props.label}
      checked={props.checked}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.checked)}
      onClick={(e) => e.stopPropagation()}
    />
  );
}

function cellClass<Row>(col: Column<Row>): string | undefined {
  const names = [col.key && 'sticky-key', col.numeric && 'numeric', col.nowrap && 'nowrap', col.wideOnly && 'wide-only'];
  return names.filter(Boolean).join(' ') || undefined;
}
