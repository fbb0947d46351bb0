import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/manifests/status-badge';
import { pageData } from '@/lib/server/page-data';
import { sampleWithHistory } from '@/lib/samples/views';

export const metadata: Metadata = { title: 'Sample' };

export default async function SamplePage({ params }: { params: Promise<{ svcId: string }> }) {
  const { svcId } = await params;
  const { sample, profileTitle, history } = await pageData((db, u) => sampleWithHistory(db, u, svcId));
  const system = {
    svc_id: sample.id,
    manifest_id: sample.manifestId,
    tol_project: sample.project.toUpperCase(),
    manifest_version: sample.manifestVersion,
    status: sample.status,
    public_name: sample.publicName ?? '',
    biosampleAccession: sample.biosampleAccession ?? '',
    sraAccession: sample.sraAccession ?? '',
    submissionAccession: sample.submissionAccession ?? '',
    time_created: sample.timeCreated.toISOString(),
    time_updated: sample.timeUpdated.toISOString(),
  };
  return (
    <>
      <p>
        <Link href={`/manifests/${sample.manifestId}`}>← Manifest</Link>
      </p>
      <h1>
        <em>{sample.scientificName}</em> <span className="mono muted">{sample.tubeOrWellId}</span>
      </h1>
      <p>
        <StatusBadge status={sample.status} /> · profile <Link href={`/profiles/${sample.profileId}`}>{profileTitle}</Link>
        {sample.status === 'rejected' && sample.rejectionReason && <> · rejected: {sample.rejectionReason}</>}
      </p>
      <h2>History</h2>
      {history.length === 0 ? (
        <p className="muted">No changes since the sample was created.</p>
      ) : (
        <ol aria-label="Changes, newest first" style={{ paddingLeft: '1.25rem' }}>
          {history.map((h) => (
            <li key={h.id} style={{ marginBottom: '0.5rem' }}>
              <span className={`badge ${h.updateType === 'system' ? '' : 'ok'}`}>{h.updateType}</span>{' '}
              <time dateTime={h.timeUpdated.toISOString()}>{h.timeUpdated.toLocaleString()}</time>:{' '}
              <span className="mono">{h.field}</span> <del>{h.oldValue || '∅'}</del> → <ins>{h.newValue || '∅'}</ins>
            </li>
          ))}
        </ol>
      )}
      <h2>Fields</h2>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">All fields of the sample</caption>
          <tbody>
            {[...Object.entries(system), ...Object.entries(sample.fields)].map(([k, v]) => (
              <tr key={k}>
                <th scope="row" className="mono">
                  {k}
                </th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
