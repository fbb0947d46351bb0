import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { ConfirmedManifests } from '@/components/manifests/confirmed-manifests';
import { ReportsList } from '@/components/manifests/reports-list';
import { UploadPanel } from '@/components/manifests/upload-panel';
import { Section } from '@/components/ui/section';
import { reviewsSamples } from '@/lib/approvals/approvals';
import { CURRENT_VERSIONS } from '@/lib/manifests';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { TOL_PROJECTS } from '@/lib/projects/contract';
import { approvalTypes } from '@/lib/reference/read';
import { confirmedManifests } from '@/lib/reports/confirmed';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Manifests' };

const PAGE = 20;

export default async function ManifestsPage({ searchParams }: { searchParams: Promise<{ manifests?: string }> }) {
  const offset = Math.max(0, Number((await searchParams).manifests) || 0);
  const { rows, total, user, required } = await pageData(async (db, u) => ({
    ...(await confirmedManifests(db, u, { limit: PAGE, offset })),
    required: await approvalTypes(db),
  }));
  return (
    <>
      <div className="inline" style={{ justifyContent: 'space-between' }}>
        <h1>Manifests</h1>
        {reviewsSamples(user, required) && (
          <Link className="button" href="/manifests/review">
            Samples awaiting review
          </Link>
        )}
      </div>
      <Section id="upload" title="Upload a manifest">
        <p className="muted">
          Each upload is checked against its project’s manifest definition; its report opens as a page you can come back to.
        </p>
        <Suspense fallback={<p aria-busy="true">Loading profiles…</p>}>
          <UploadPanel />
        </Suspense>
      </Section>
      <Section id="reports" title="Validation reports">
        <Suspense fallback={<p aria-busy="true">Loading reports…</p>}>
          <ReportsList />
        </Suspense>
      </Section>
      <Section id="confirmed" title="Confirmed manifests">
        <ConfirmedManifests rows={rows} total={total} offset={offset} limit={PAGE} />
      </Section>
      <Section id="templates" title="Blank templates">
        <ul>
          {TOL_PROJECTS.map((p) => (
            <li key={p}>
              <a href={`/api/manifest/template?project=${p}`} download>
                {manifestTypeOf(p)} manifest template, version {CURRENT_VERSIONS[p]} (.xlsx)
              </a>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
