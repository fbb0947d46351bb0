import Link from 'next/link';
import { currentUser } from '@/lib/server/auth-options';

export default async function HomePage() {
  const user = await currentUser();
  return (
    <>
      <h1>Welcome{user ? `, ${user.username}` : ''}</h1>
      <p>
        The broker validates sample manifests and study spreadsheets, keeps every sample record and every change to
        it, and submits them to ENA and Zenodo.
      </p>
      <h2>Your projects</h2>
      {user && user.memberOf.length > 0 ? (
        <ul>
          {user.memberOf.map((p) => (
            <li key={p}>
              {p.toUpperCase()}
              {user.managerOf.includes(p) && <span className="badge"> sample manager</span>}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">You are not a member of a Tree of Life project yet; an admin can add you.</p>
      )}
      <h2>Scripts and pipelines</h2>
      <p>
        Create an <Link href="/account/keys">API key</Link> and read the <a href="/api/docs">API documentation</a>.
      </p>
    </>
  );
}
