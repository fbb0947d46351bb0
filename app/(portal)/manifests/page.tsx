import type { Metadata } from 'next';
import Link from 'next/link';
import { UploadPanel } from '@/components/manifests/upload-panel';
import { pageData } from '@/lib/server/page-data';
import { manifestsForUser } from '@/lib/samples/views';

export const metadata: Metadata = { title: 'Manifests' };

export default async function ManifestsPage({ searchParams }: { searchParams: Promise<{ profile?: string }> }) {
  const { profile } = await searchParams;
  const { rows, user } = await pageData(async (db, u) => ({ rows: await manifestsForUser(db, u) }));
  return (
    <>
      <div className="inline" style={{ justifyContent: 'space-between' }}>
        <h1>Manifests</h1>
        {(user.isAdmin || user.managerOf.length > 0) && (
          <Link className="button" href="/manifests/review">
            Samples awaiting review
          </Link>
        )}
      </div>
      <UploadPanel initialProfileId={profile} />
      <h2>Confirmed manifests</h2>
      {rows.length === 0 ? (
        <p className="muted">No manifests yet: upload one above.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Confirmed manifests</caption>
            <thead>
              <tr>
                <th scope="col">Manifest</th>
                <th scope="col">Profile</th>
                <th scope="col">Project</th>
                <th scope="col">Samples</th>
                <th scope="col">Confirmed</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id}>
                  <td>
                    <Link href={`/manifests/${m.id}`} className="mono">
                      {m.fileName || m.id}
                    </Link>
                  </td>
                  <td>{m.profileTitle}</td>
                  <td>
                    {m.project.toUpperCase()} {m.version}
                  </td>
                  <td>{m.samples}</td>
                  <td>{m.createdAt.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
