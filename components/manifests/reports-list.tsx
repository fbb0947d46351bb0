'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { api, apiPage } from '@/lib/client/api';
import type { ValidationReportSummary } from '@/lib/reports/contract';
import { PROFILES_KEY, PROFILES_LIMIT, REPORTS_OFFSET_PARAM, REPORTS_PAGE, reportsKey } from './manifests-query';
import { StateBadge } from './state-badge';
import { reportState, sheetWords } from './words';

/**
 * Earlier validation reports, newest first, each linking to its page: the caller's uploads and the reports on the
 * caller's profiles, or with `profileId` the reports of that profile. A report still being checked is followed.
 */
export function ReportsList({ profileId }: { profileId?: string }) {
  const list = usePagedList({
    key: reportsKey(profileId),
    limit: REPORTS_PAGE,
    param: REPORTS_OFFSET_PARAM,
    fetch: (offset, limit) =>
      apiPage('/api/manifest/validations', { offset, limit }, { params: { query: profileId ? { profile_id: profileId } : {} } }),
    refetchInterval: (page) => (page?.rows.some((r) => r.status === 'pending' || r.status === 'running') ? 3000 : false),
  });
  // the profile column names profiles by title; a list of one profile's reports needs no such column
  const profiles = useQuery({
    queryKey: PROFILES_KEY,
    queryFn: () => api.GET('/api/profiles', { params: { query: { limit: PROFILES_LIMIT } } }),
    enabled: !profileId,
  });
  const titleOf = new Map((profiles.data ?? []).map((p) => [p.id, p.title]));

  const table: TableDefinition<ValidationReportSummary> = {
    noun: 'reports',
    rowKey: (r) => r.report_id,
    columns: [
      {
        id: 'file',
        header: 'File',
        key: true,
        cell: (r) => <Link href={`/manifests/reports/${r.report_id}`}>{r.file_name}</Link>,
      },
      {
        id: 'status',
        header: 'Status',
        cell: (r) => {
          const s = reportState(r);
          return <StateBadge tone={s.tone}>{s.words}</StateBadge>;
        },
      },
      ...(profileId
        ? []
        : [
            {
              id: 'profile',
              header: 'Profile',
              cell: (r: ValidationReportSummary) => (
                <Link href={`/profiles/${r.profile_id}`}>{titleOf.get(r.profile_id) ?? r.profile_id}</Link>
              ),
            },
          ]),
      { id: 'manifest', header: 'Sheet', nowrap: true, cell: (r) => sheetWords(r) },
      {
        id: 'rows',
        header: 'Rows',
        numeric: true,
        cell: (r) => (r.status === 'complete' ? plural(r.summary.rows, 'row') : <span className="muted">—</span>),
      },
      { id: 'uploaded', header: 'Uploaded', cell: (r) => <When value={r.created} /> },
    ],
  };

  return (
    <DataTable
      caption={profileId ? 'Validation reports of this profile' : 'Your validation reports'}
      table={table}
      {...list}
      empty="Nothing uploaded yet: the report of each upload will be listed here."
    />
  );
}
