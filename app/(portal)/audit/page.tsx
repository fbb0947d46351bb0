import type { Metadata } from 'next';
import { AuditBrowser } from '@/components/audit/audit-browser';
import { auditFieldChoices } from '@/lib/browse/audit';

export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  return (
    <>
      <h1>Audit</h1>
      <p className="muted">
        Every change to a sample’s exported fields, newest first: by users re-uploading a manifest, or by the system (accessions, status).
        As in the public audit API, who made a change is not shown here; a sample’s own page shows it to the sample’s owner and managers.
      </p>
      <AuditBrowser fieldNames={auditFieldChoices()} />
    </>
  );
}
