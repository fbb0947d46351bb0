import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { Nav } from '@/components/layout/nav';
import { NAV_ITEMS } from '@/components/layout/nav-items';
import { SignOutButton } from '@/components/layout/sign-out-button';
import { currentUser } from '@/lib/server/auth-options';

export const dynamic = 'force-dynamic';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect('/signin');
  const items = NAV_ITEMS.filter((i) => !i.adminOnly || user.isAdmin);
  return (
    <div className="shell">
      <aside className="sidebar">
        <a className="brand" href="/">
          Research Metadata Broker
        </a>
        <Nav items={[...items, { href: '/api/docs', label: 'API docs' }]} />
        <div className="who">
          <p>
            Signed in as <strong>{user.username}</strong>
            {user.isAdmin && <span className="badge"> admin</span>}
          </p>
          <SignOutButton />
        </div>
      </aside>
      <main id="main">{children}</main>
    </div>
  );
}
