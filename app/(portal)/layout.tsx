import type { ReactNode } from 'react';
import { NAV_ITEMS } from '@/components/layout/nav-items';
import { Sidebar } from '@/components/layout/sidebar';
import { reviewsSamples } from '@/lib/approvals/approvals';
import { approvalTypes } from '@/lib/reference/read';
import { countAwaitingReview } from '@/lib/samples/decision';
import { signedInOrRedirect } from '@/lib/server/auth-options';
import { getDb } from '@/lib/server/runtime';

export const dynamic = 'force-dynamic';

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await signedInOrRedirect();
  const db = await getDb();
  const reviews = reviewsSamples(user, await approvalTypes(db));
  const items = NAV_ITEMS.filter((i) => (!i.adminOnly || user.isAdmin) && (!i.reviewers || reviews));
  const awaiting = reviews ? await countAwaitingReview(db, user) : null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to the content
      </a>
      <Sidebar
        items={[...items, { href: '/api/docs', label: 'API docs', outside: true }]}
        username={user.username}
        isAdmin={user.isAdmin}
        awaiting={awaiting}
      />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
