import type { Metadata } from 'next';
import Link from 'next/link';
import { ConfirmedManifests } from '@/components/manifests/confirmed-manifests';
import { PROFILES_KEY, PROFILES_LIMIT, REPORTS_OFFSET_PARAM, REPORTS_PAGE, reportsKey } from '@/components/manifests/manifests-query';
import { ReportsList } from '@/components/manifests/reports-list';
import { UploadPanel } from '@/components/manifests/upload-panel';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { Section } from '@/components/ui/section';
import { reviewsSamples } from '@/lib/approvals/approvals';
import { CURRENT_VERSIONS } from '@/lib/manifests';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { profileJson } from '@/lib/profiles/json';
import { listProfiles } from '@/lib/profiles/profiles';
import { TOL_PROJECTS } from '@/lib/projects/contract';
import { approvalTypes } from '@/lib/reference/read';
import { confirmedManifests } from '@/lib/reports/confirmed';
import { reportSummaries } from '@/lib/reports/json';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Manifests' };

const PAGE = 20;

export default async function ManifestsPage({ searchParams }: { searchParams: Promise<{ manifests?: string; reports?: string }> }) {
  const search = await searchParams;
  const offset = Math.max(0, Number(search.manifests) || 0);
  const reportsOffset = Math.max(0, Number(search[REPORTS_OFFSET_PARAM]) || 0);
  // the upload's profiles and the reports come with the page too, so that nothing moves when they would have loaded
  const { rows, total, user, required, reports, profiles } = await pageData(async (db, u) => ({
    ...(await confirmedManifests(db, u, { limit: PAGE, offset })),
    required: await approvalTypes(db),
    reports: await reportSummaries(db, u, { limit: REPORTS_PAGE, offset: reportsOffset }),
    profiles: (await listProfiles(db, u, { limit: PROFILES_LIMIT, offset: 0 })).rows.map(profileJson),
  }));
  const answers = [
    [PROFILES_KEY, asSent(profiles)],
    [[...reportsKey(), reportsOffset], asSent(reports)],
  ] as const;
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
      <Prefetched answers={answers}>
        <Section id="upload" title="Upload a manifest">
          <p className="muted">
            Each upload is checked against its project’s manifest definition; its report opens as a page you can come back to.
          </p>
          <UploadPanel />
        </Section>
        <Section id="reports" title="Validation reports">
          <ReportsList />
        </Section>
      </Prefetched>
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
