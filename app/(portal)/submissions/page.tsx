import type { Metadata } from 'next';
import { SubmissionsTable } from '@/components/submissions/submissions-table';

export const metadata: Metadata = { title: 'Submissions' };

export default function SubmissionsPage() {
  return (
    <>
      <h1>Submissions</h1>
      <p className="muted">
        Samples registered at ENA and studies sent to ENA or Zenodo. Running submissions update here by themselves; accessions link to the
        repository’s pages.
      </p>
      <SubmissionsTable />
    </>
  );
}
