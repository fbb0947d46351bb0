import type { Metadata } from 'next';
import { StatsDashboard } from '@/components/stats/stats-dashboard';
import { config, externalServices } from '@/lib/config';
import { NotFound } from '@/lib/errors';
import { pageData } from '@/lib/server/page-data';
import { statsSummary } from '@/lib/stats/stats';

export const metadata: Metadata = { title: 'Statistics' };

export default async function StatsPage() {
  // the first figures come with the page, so that it is drawn at once; the dashboard refreshes them from the API
  const { summary, at } = await pageData(async (db, u) => {
    // as for the other admin areas, others get a plain 404 so the page's existence is not advertised
    if (!u.isAdmin) throw NotFound();
    return { summary: { ...(await statsSummary(db)), services: externalServices(config()) }, at: Date.now() };
  });
  return (
    <>
      <h1>Statistics</h1>
      <p className="muted">
        What the broker holds, from the public statistics endpoints (<code>/api/stats/summary</code> gathers them).
      </p>
      <StatsDashboard initial={summary} at={at} />
    </>
  );
}
