'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useMemo, useState } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { formatNumber, plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { IssueGroup, IssueSeverity, ReportIssue } from '@/lib/reports/contract';
import { MessageText, ValueList } from './message-text';
import styles from './report.module.css';
import { reportGroupsKey } from './report-query';

const CELLS = 25;
const OPEN = 'open';

const keyOf = (g: IssueGroup): string => `${g.severity}:${g.field ?? ''}:${g.rule}`;
const offsetParam = (key: string): string => `cells:${key}`;
const SEVERITIES = ['error', 'warning'] as const;

/** "SPECIMEN_ID · not in the expected format · 42 rows" */
export function groupLine(g: IssueGroup): string {
  const where = g.rows ? plural(g.rows, 'row') : plural(g.count, 'issue');
  return `${g.field ?? 'The sheet'} · ${g.title} · ${where}`;
}

/**
 * A report's errors and warnings, one line per field and rule with its count, each opening to its cells a page at a
 * time; a filter by severity. What is open, the filter and each group's page live in the URL, so a reload or a
 * colleague sent the address sees the same.
 */
export function IssueGroups({ reportId }: { reportId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const filterName = useId();
  const inUrl = SEVERITIES.find((s) => s === search.get('severity'));
  // the radio follows the click at once; the URL (and so a reload, back and forward) catches up a moment later
  const [severity, setSeverity] = useState(inUrl);
  const [urlSeen, setUrlSeen] = useState(inUrl);
  if (urlSeen !== inUrl) {
    setUrlSeen(inUrl);
    setSeverity(inUrl);
  }
  const open = new Set(search.getAll(OPEN));
  const q = useQuery({
    queryKey: reportGroupsKey(reportId),
    queryFn: () => api.GET('/api/manifest/validate/report/{report_id}/groups', { params: { path: { report_id: reportId } } }),
  });

  const go = (next: URLSearchParams) => {
    const qs = next.toString();
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const toggle = (key: string) => {
    const next = new URLSearchParams(search);
    next.delete(OPEN);
    for (const k of open) if (k !== key) next.append(OPEN, k);
    if (!open.has(key)) next.append(OPEN, key);
    else next.delete(offsetParam(key));
    go(next);
  };
  const filterBy = (value: IssueSeverity | undefined) => {
    setSeverity(value);
    const next = new URLSearchParams(search);
    if (value) next.set('severity', value);
    else next.delete('severity');
    go(next);
  };

  if (q.isPending) return <p aria-busy="true">Loading the errors and warnings…</p>;
  if (q.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load the errors and warnings: {q.error.message}
      </p>
    );
  }
  const { errors, warnings, groups } = q.data;
  const shown = groups.filter((g) => !severity || g.severity === severity);
  const choices: [IssueSeverity | undefined, string][] = [
    [undefined, `All (${formatNumber(errors + warnings)})`],
    ['error', `Errors (${formatNumber(errors)})`],
    ['warning', `Warnings (${formatNumber(warnings)})`],
  ];
  return (
    <>
      <fieldset className={styles.filter}>
        <legend>Show</legend>
        {choices.map(([value, label]) => (
          <label key={label}>
            <input type="radio" name={filterName} checked={severity === value} onChange={() => filterBy(value)} />
            {label}
          </label>
        ))}
      </fieldset>
      {shown.length === 0 ? (
        <p className="muted">{severity === 'warning' ? 'No warnings.' : 'No errors.'}</p>
      ) : (
        <ul className={styles.groups} aria-label={`${plural(shown.length, 'group')} of issues, by field and rule`}>
          {shown.map((g) => {
            const key = keyOf(g);
            const offset = Math.max(0, Number(search.get(offsetParam(key))) || 0);
            return (
              <Group
                key={key}
                reportId={reportId}
                group={g}
                open={open.has(key)}
                offset={offset}
                onToggle={() => toggle(key)}
                hrefFor={(o) => withParams(pathname, search, { [offsetParam(key)]: o ? String(o) : undefined })}
              />
            );
          })}
        </ul>
      )}
    </>
  );
}

function Group({
  reportId,
  group,
  open,
  offset,
  onToggle,
  hrefFor,
}: {
  reportId: string;
  group: IssueGroup;
  open: boolean;
  offset: number;
  onToggle: () => void;
  hrefFor: (offset: number) => string;
}) {
  const panel = useId();
  const error = group.severity === 'error';
  return (
    <li className={styles.group} data-severity={group.severity}>
      <h3 className={styles.groupHead}>
        <button type="button" aria-expanded={open} aria-controls={panel} onClick={onToggle}>
          <span className={`badge ${error ? 'danger' : styles.warnBadge}`}>{error ? 'Error' : 'Warning'}</span>{' '}
          <span className={styles.groupLine}>{groupLine(group)}</span>
          {group.column ? <span className="muted"> (column {group.column})</span> : null}
        </button>
      </h3>
      {open ? (
        <div id={panel} className={styles.groupBody}>
          {group.allowed_values ? (
            <ValueList
              values={group.allowed_values}
              label={`The ${group.allowed_values.length} values ${group.field ?? 'this field'} allows`}
              open={group.allowed_values.length <= 30}
            />
          ) : null}
          {group.expected ? (
            <p>
              Expected: <span className={styles.expected}>{group.expected}</span>
            </p>
          ) : null}
          <GroupCells reportId={reportId} group={group} offset={offset} hrefFor={hrefFor} />
        </div>
      ) : null}
    </li>
  );
}

type NumberedIssue = ReportIssue & { n: number };

function GroupCells({
  reportId,
  group,
  offset,
  hrefFor,
}: {
  reportId: string;
  group: IssueGroup;
  offset: number;
  hrefFor: (offset: number) => string;
}) {
  const query = { severity: group.severity, field: group.field ?? '', rule: group.rule, limit: CELLS, offset };
  const q = useQuery({
    queryKey: ['report-issues', reportId, keyOf(group), offset],
    queryFn: () => api.GET('/api/manifest/validate/report/{report_id}/issues', { params: { path: { report_id: reportId }, query } }),
    placeholderData: keepPreviousData,
  });
  const listed = Boolean(group.allowed_values);
  const table: TableDefinition<NumberedIssue> = {
    noun: 'cells',
    rowKey: (i) => String(i.n),
    columns: [
      {
        id: 'cell',
        header: 'Cell',
        key: true,
        nowrap: true,
        cell: (i) =>
          i.column || i.row ? (
            <>
              {`${i.column ?? ''}${i.row ?? ''}`}
              {/* a person finds the sample by its tube, not by its row */}
              {i.tube ? <span className="mono muted"> tube {i.tube}</span> : null}
            </>
          ) : (
            'Sheet'
          ),
      },
      {
        id: 'value',
        header: 'Value',
        cell: (i) => (i.value ? <span className="mono">{i.value}</span> : <span className="muted">empty</span>),
      },
      { id: 'problem', header: 'Problem', cell: (i) => <MessageText text={i.message} listedAbove={listed} /> },
    ],
  };
  const issues = q.data?.data;
  // the same rows from one drawing to the next, or the table would draw them again in the background (DataTable)
  const rows = useMemo(() => issues?.map((issue, n) => ({ ...issue, n: offset + n })), [issues, offset]);
  const what = group.severity === 'error' ? 'Errors: fix these cells' : 'Warnings: check these cells';
  return (
    <DataTable
      caption={`${what} — ${group.field ?? 'the sheet'} · ${group.title}`}
      table={table}
      // issues have no id; their place in the report is stable (a complete report never changes)
      rows={rows}
      query={q}
      page={{ offset, limit: CELLS, total: q.data?.number_found ?? 0, hrefFor }}
    />
  );
}
