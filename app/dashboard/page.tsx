import type { Metadata } from 'next';
import Link from 'next/link';
import { CollectionMap } from '@/components/dashboard/collection-map';
import styles from '@/components/dashboard/dashboard.module.css';
import { statusWords } from '@/components/samples/sample-state';
import { SeriesChart } from '@/components/ui/series-chart';
import { When } from '@/components/ui/when';
import { formatNumber, plural } from '@/components/ui/words';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { TOL_PROJECTS } from '@/lib/projects/contract';
import { SAMPLE_STATUSES } from '@/lib/samples/contract';
import { currentUser } from '@/lib/server/auth-options';
import { getDb } from '@/lib/server/runtime';
import { publicDashboard } from '@/lib/stats/public';

export const metadata: Metadata = { title: 'Tree of Life dashboard' };
// counted per request from the minute-long cache (lib/stats/public.ts), never at build time
export const dynamic = 'force-dynamic';

/** The public Tree of Life dashboard: no sign-in, public samples only, figures at most a minute old. */
export default async function DashboardPage() {
  const [d, user] = await Promise.all([publicDashboard(await getDb()), currentUser()]);
  const statuses = SAMPLE_STATUSES.filter((s) => d.by_project.some((p) => p.by_status[s]));
  const projects = TOL_PROJECTS.filter((p) => d.per_month.some((m) => m.by_project[p]));
  return (
    <>
      <header className={styles.header}>
        <p style={{ margin: 0 }}>
          <strong>Research Metadata Broker</strong>
        </p>
        <nav aria-label="Site">
          <ul>
            <li>{user ? <Link href="/">Back to the portal</Link> : <Link href="/signin">Sign in</Link>}</li>
            <li>
              <a href="/api/stats/dashboard">These figures as JSON</a>
            </li>
            <li>
              <a href="/api/docs">API docs</a>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className={styles.page}>
        <h1>Tree of Life samples</h1>
        <p>
          The samples of the Tree of Life projects brokered here, as anyone may read them through the public API. Samples held are every
          such sample the broker keeps, whatever its state (awaiting review, rejected by a manager, refused by ENA, registered); registered
          samples are those ENA has accessioned. Private samples and samples embargoed under traditional-knowledge rights are not counted.
          Figures are counted at most {d.cache_seconds} seconds before they are shown (these at <When value={d.generated} />
          ).
        </p>
        <dl className="cards">
          {(
            [
              ['Samples held', d.samples],
              ['Registered at ENA', d.registered],
              ['Projects', d.by_project.length],
              ['Collection places', d.places.length],
            ] as const
          ).map(([label, n]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{formatNumber(n)}</dd>
            </div>
          ))}
        </dl>

        <section aria-labelledby="by-project">
          <h2 id="by-project">Samples held, per project and state</h2>
          <SeriesChart
            title="Samples held per project, stacked by state"
            caption="Samples held per project and state"
            unit="samples"
            labelHeading="Project"
            rows={d.by_project.map((p) => ({ label: manifestTypeOf(p.project), values: p.by_status }))}
            series={statuses.map((s) => ({ key: s, label: statusWords(s) }))}
          />
        </section>

        <section aria-labelledby="per-month">
          <h2 id="per-month">Samples registered at ENA, per month</h2>
          <SeriesChart
            title="Samples registered at ENA per month of their registration, stacked by project"
            caption="Samples registered at ENA per month, by project"
            empty="No sample is registered at ENA yet."
            unit="samples"
            labelHeading="Month"
            rows={d.per_month.map((m) => ({ label: m.month, values: m.by_project }))}
            series={projects.map((p) => ({ key: p, label: manifestTypeOf(p) }))}
          />
        </section>

        <section aria-labelledby="top-taxa">
          <h2 id="top-taxa">Most sampled taxa</h2>
          <SeriesChart
            title={`The ${d.top_taxa.length} taxa with the most samples held`}
            caption="Samples held of the most sampled taxa"
            unit="samples"
            labelHeading="Taxon"
            lying
            rows={d.top_taxa.map((t) => ({ label: t.scientific_name, values: { samples: t.samples } }))}
            series={[{ key: 'samples', label: 'samples' }]}
          />
          {d.samples > 0 && (
            <p className="muted">
              {/* the chart shows the most sampled taxa only: what it leaves out, so that it adds up to the total */}
              These {plural(d.top_taxa.length, 'taxon', 'taxa')} have{' '}
              {formatNumber(d.samples - d.samples_of_other_taxa - d.samples_without_taxon)} of the {formatNumber(d.samples)} samples held;{' '}
              {formatNumber(d.samples_of_other_taxa)} are of other taxa and {formatNumber(d.samples_without_taxon)} name none (scientific
              name none given).
            </p>
          )}
        </section>

        <section aria-labelledby="places">
          <h2 id="places">Where samples were collected</h2>
          <CollectionMap places={d.places} />
          {d.samples > 0 && (
            <p className="muted">
              {formatNumber(d.samples - d.samples_without_place)} of the {formatNumber(d.samples)} samples held give their collection place;{' '}
              {formatNumber(d.samples_without_place)} give no decimal latitude and longitude (none given, or for example NOT_COLLECTED).
            </p>
          )}
        </section>
      </main>
    </>
  );
}
