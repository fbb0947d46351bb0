import type { Metadata } from 'next';
import Link from 'next/link';
import { pageData } from '@/lib/server/page-data';
import { studiesForUser } from '@/lib/studies/overview';

export const metadata: Metadata = { title: 'Studies' };

export default async function StudiesPage() {
  const { rows } = await pageData(async (db, u) => ({ rows: await studiesForUser(db, u) }));
  return (
    <>
      <h1>Studies</h1>
      <p className="muted">
        Single-cell and imaging studies live in biodata profiles: open a profile to upload a study spreadsheet, export
        it, or submit it to ENA or Zenodo.
      </p>
      {rows.length === 0 ? (
        <p className="muted">
          No studies yet. <Link href="/profiles/new">Create a biodata profile</Link> and upload a study from its page.
        </p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Your studies</caption>
            <thead>
              <tr>
                <th scope="col">Study</th>
                <th scope="col">Profile</th>
                <th scope="col">Schema</th>
                <th scope="col">Checklist</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={`${s.profileId}/${s.studyId}`}>
                  <th scope="row" className="mono">
                    {s.studyId}
                  </th>
                  <td>
                    <Link href={`/profiles/${s.profileId}`}>{s.profileTitle}</Link>
                  </td>
                  <td className="mono">{s.schemaName}</td>
                  <td className="mono">{s.checklistId}</td>
                  <td>{s.updatedAt.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
