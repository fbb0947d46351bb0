import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { StatsDashboard } from '@/components/stats/stats-dashboard';
import { currentUser } from '@/lib/server/auth-options';

export const metadata: Metadata = { title: 'Statistics' };

export default async function StatsPage() {
  const user = await currentUser();
  // as for the other admin areas, others get a plain 404 so the page's existence is not advertised
  if (!user?.isAdmin) notFound();
  return (
    <>
      <h1>Statistics</h1>
      <p className="muted">
        What the broker holds, from the public statistics endpoints (<code>/api/stats/summary</code> gathers them).
      </p>
      <StatsDashboard />
    </>
  );
}
