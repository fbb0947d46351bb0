import type { Metadata } from 'next';
import Link from 'next/link';
import { StatusBadge } from '@/components/manifests/status-badge';
import { pageData } from '@/lib/server/page-data';
import { manifestWithSamples } from '@/lib/samples/views';

export const metadata: Metadata = { title: 'Manifest' };

export default async function ManifestPage({ params }: { params: Promise<{ manifestId: string }> }) {
  const { manifestId } = await params;
  const { manifest, profileTitle, samples } = await pageData((db, u) => manifestWithSamples(db, u, manifestId));
  const counts = samples.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.status]: (acc[s.status] ?? 0) + 1 }), {});
  return (
    <>
      <p>
        <Link href="/manifests">← Manifests</Link>
      </p>
      <h1>
        {manifest.fileName || 'Manifest'} <span className="muted">({manifest.project.toUpperCase()} {manifest.version})</span>
      </h1>
      <p>
        Profile <Link href={`/profiles/${manifest.profileId}`}>{profileTitle}</Link> · manifest id{' '}
        <span className="mono">{manifest.id}</span> · confirmed {manifest.createdAt.toLocaleString()}
      </p>
      <p>
        {Object.entries(counts).map(([status, n]) => (
          <span key={status} style={{ marginRight: '0.75rem' }}>
            <StatusBadge status={status} /> {n}
          </span>
        ))}
      </p>
      <div className="table-wrap">
        <table>
          <caption>Samples of this manifest</caption>
          <thead>
            <tr>
              <th scope="col">svc_id</th>
              <th scope="col">Rack / tube</th>
              <th scope="col">Specimen</th>
              <th scope="col">Scientific name</th>
              <th scope="col">Status</th>
              <th scope="col">BioSample</th>
            </tr>
          </thead>
          <tbody>
            {samples.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link className="mono" href={`/samples/${s.id}`}>
                    {s.id}
                  </Link>
                </td>
                <td className="mono">
                  {s.rackOrPlateId ? `${s.rackOrPlateId} / ` : ''}
                  {s.tubeOrWellId}
                </td>
                <td className="mono">{s.specimenId}</td>
                <td>
                  <em>{s.scientificName}</em> <span className="muted">({s.taxonId})</span>
                </td>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                <td className="mono">{s.biosampleAccession ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
