import type { Metadata } from 'next';
import { SUBMISSIONS_KEY, SUBMISSIONS_PAGE } from '@/components/submissions/submissions-query';
import { SubmissionsTable } from '@/components/submissions/submissions-table';
import { foundPage, pageOffset } from '@/components/ui/api-pages';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { pageData } from '@/lib/server/page-data';
import { submissionsAnswer } from '@/lib/submissions/submissions';

export const metadata: Metadata = { title: 'Submissions' };

export default async function SubmissionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const offset = pageOffset((await searchParams).offset);
  // the first page comes with the page, so that the list is drawn with it
  const { first } = await pageData(async (db, u) => ({
    first: Number.isSafeInteger(offset) ? await submissionsAnswer(db, u, { limit: SUBMISSIONS_PAGE, offset }) : undefined,
  }));
  return (
    <>
      <h1>Submissions</h1>
      <p className="muted">
        Samples registered at ENA and studies sent to ENA or Zenodo. Running submissions update here by themselves; accessions link to the
        repository’s pages.
      </p>
      <Prefetched answers={first ? [[[...SUBMISSIONS_KEY, offset], asSent(foundPage(first))]] : []}>
        <SubmissionsTable />
      </Prefetched>
    </>
  );
}
