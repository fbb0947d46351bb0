'use client';

import Link from 'next/link';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import type { SchemaName } from '@/lib/checklists/contract';
import { SCHEMA_LABELS } from '@/lib/checklists/labels';

/** A study as the overview lists it (the page reads them on the server). */
export interface StudyOverviewRow {
  studyId: string;
  schemaName: string;
  checklistId: string;
  profileId: string;
  profileTitle: string;
  updatedAt: string;
}

const table: TableDefinition<StudyOverviewRow> = {
  noun: 'studies',
  rowKey: (s) => `${s.profileId}/${s.schemaName}/${s.studyId}`,
  columns: [
    { id: 'study', header: 'Study', key: true, nowrap: true, cell: (s) => <span className="mono">{s.studyId}</span> },
    { id: 'profile', header: 'Profile', cell: (s) => <Link href={`/profiles/${s.profileId}`}>{s.profileTitle}</Link> },
    { id: 'schema', header: 'Kind', cell: (s) => SCHEMA_LABELS[s.schemaName as SchemaName] ?? s.schemaName },
    { id: 'checklist', header: 'Checklist', cell: (s) => <span className="mono">{s.checklistId}</span> },
    { id: 'updated', header: 'Updated', cell: (s) => <When value={s.updatedAt} /> },
  ],
};

export function StudiesOverview({
  rows,
  offset,
  limit,
  total,
}: {
  rows: StudyOverviewRow[];
  offset: number;
  limit: number;
  total: number;
}) {
  return (
    <DataTable
      caption="Your studies, most recently changed first"
      table={table}
      rows={rows}
      empty={
        <p className="muted">
          No studies yet. <Link href="/profiles/new?type=biodata">Create a biodata profile</Link> and upload a study from its page.
        </p>
      }
      page={{ offset, limit, total, hrefFor: (o) => (o ? `/studies?offset=${o}` : '/studies') }}
    />
  );
}
