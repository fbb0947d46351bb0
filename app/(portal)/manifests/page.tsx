import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ConfirmedManifests } from '@/components/manifests/confirmed-manifests';
import { ReportsList } from '@/components/manifests/reports-list';
import { UploadPanel } from '@/components/manifests/upload-panel';
import { CURRENT_VERSIONS } from '@/lib/manifests';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { TOL_PROJECTS } from '@/lib/projects/contract';
import { confirmedManifests } from '@/lib/reports/confirmed';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Manifests' };

const PAGE = 20;

export default async function ManifestsPage({ searchParams }: { searchParams: Promise<{ manifests?: string }> }) {
  const offset = Math.max(0, Number((await searchParams).manifests) || 0);
  const { rows, total, user } = await pageData((db, u) => confirmedManifests(db, u, { limit: PAGE, offset }));
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
      <section aria-labelledby="upload-heading">
        <h2 id="upload-heading">Upload a manifest</h2>
        <p className="muted">
          Each upload is checked against its project’s manifest definition; its report opens as a page you can come back to.
        </p>
        <Suspense fallback={<p aria-busy="true">Loading profiles…</p>}>
          <UploadPanel />
        </Suspense>
      </section>
      <section aria-labelledby="reports-heading">
        <h2 id="reports-heading">Validation reports</h2>
        <Suspense fallback={<p aria-busy="true">Loading reports…</p>}>
          <ReportsList />
        </Suspense>
      </section>
      <section aria-labelledby="confirmed-heading">
        <h2 id="confirmed-heading">Confirmed manifests</h2>
        <ConfirmedManifests rows={rows} total={total} offset={offset} limit={PAGE} />
      </section>
      <section aria-labelledby="templates-heading">
        <h2 id="templates-heading">Blank templates</h2>
        <ul>
          {TOL_PROJECTS.map((p) => (
            <li key={p}>
              <a href={`/api/manifest/template?project=${p}`} download>
                {manifestTypeOf(p)} manifest template, version {CURRENT_VERSIONS[p]} (.xlsx)
              </a>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
