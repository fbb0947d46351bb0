import type { Metadata } from 'next';
import { StudiesOverview } from '@/components/studies/studies-overview';
import { pageData } from '@/lib/server/page-data';
import { studiesForUser } from '@/lib/studies/overview';

export const metadata: Metadata = { title: 'Studies' };

const PAGE = 50;

export default async function StudiesPage({ searchParams }: { searchParams: Promise<{ offset?: string }> }) {
  const { offset: raw } = await searchParams;
  const { rows } = await pageData(async (db, u) => ({ rows: await studiesForUser(db, u) }));
  const offset = Math.min(Math.max(0, Number.parseInt(raw ?? '0', 10) || 0), Math.max(0, rows.length - 1));
  return (
    <>
      <h1>Studies</h1>
      <p className="muted">
        Single-cell and imaging studies live in biodata profiles: open a profile to upload a study spreadsheet, export it, or submit it to
        ENA or Zenodo.
      </p>
      <StudiesOverview
        rows={rows.slice(offset, offset + PAGE).map((s) => ({
          studyId: s.studyId,
          schemaName: s.schemaName,
          checklistId: s.checklistId,
          profileId: s.profileId,
          profileTitle: s.profileTitle,
          updatedAt: s.updatedAt.toISOString(),
        }))}
        offset={offset}
        limit={PAGE}
        total={rows.length}
      />
    </>
  );
}
