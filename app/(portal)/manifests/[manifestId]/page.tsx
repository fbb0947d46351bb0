import type { Metadata } from 'next';
import Link from 'next/link';
import { ManifestImagesStep } from '@/components/images/image-upload';
import { ManifestSamples } from '@/components/manifests/manifest-samples';
import { StatusWords } from '@/components/samples/sample-state';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { manifestTypeOf } from '@/lib/manifests/contract';
import { roleAllows, roleOn } from '@/lib/profiles/access';
import { manifestSamplesPage } from '@/lib/reports/confirmed';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Manifest' };

const PAGE = 50;

export default async function ManifestPage({
  params,
  searchParams,
}: {
  params: Promise<{ manifestId: string }>;
  searchParams: Promise<{ offset?: string }>;
}) {
  const { manifestId } = await params;
  const offset = Math.max(0, Number((await searchParams).offset) || 0);
  const { manifest, profileTitle, uploadedBy, samples, counts, total, contributes } = await pageData(async (db, u) => {
    const page = await manifestSamplesPage(db, u, manifestId, { limit: PAGE, offset });
    const role = await roleOn(db, u, { id: page.manifest.profileId, ownerId: page.profileOwnerId });
    return { ...page, contributes: roleAllows(role, 'contribute') };
  });
  return (
    <>
      <p>
        <Link href="/manifests">← Manifests</Link>
      </p>
      <h1>
        {manifest.fileName || 'Manifest'}{' '}
        <span className="muted">
          ({manifestTypeOf(manifest.project)} {manifest.version})
        </span>
      </h1>
      <p>
        {plural(total, 'sample')} in the profile <Link href={`/profiles/${manifest.profileId}`}>{profileTitle}</Link>, confirmed{' '}
        <When value={manifest.createdAt} />
        {uploadedBy ? ` by ${uploadedBy}` : ''}.{' '}
        {manifest.reportId ? <Link href={`/manifests/reports/${manifest.reportId}`}>Its validation report</Link> : null}
        {manifest.reportId ? ' · ' : null}
        <Link href={`/samples?manifest_id=${manifest.id}`}>Find its samples in the samples browser</Link>
        {' · '}
        <a href="#images">{contributes ? 'Add images of its specimens' : 'Images of its specimens'}</a>
      </p>
      <section aria-labelledby="correct">
        <h2 id="correct">Correct its samples</h2>
        <p>
          Download the manifest as its {manifestTypeOf(manifest.project)} {manifest.version} template, filled with the samples’ current
          values. Edit it and upload it again under <Link href={`/profiles/${manifest.profileId}#upload`}>Add samples</Link> on its profile:
          it is an update, whose validation report shows each change before you confirm it. Symbionts follow their target and are not
          listed.
        </p>
        <p>
          <a className="button" href={`/api/manifest/${manifest.id}/spreadsheet`} download>
            Download to edit (xlsx)
          </a>
        </p>
      </section>
      {counts.length > 0 && (
        <ul className="inline" aria-label="Samples by state" style={{ listStyle: 'none', padding: 0 }}>
          {counts.map((c) => (
            <li key={c.status}>
              <StatusWords status={c.status} /> {plural(c.samples, 'sample')}
            </li>
          ))}
        </ul>
      )}
      <h2>Samples</h2>
      <ManifestSamples rows={samples} total={total} offset={offset} limit={PAGE} />
      <ManifestImagesStep manifestId={manifest.id} contributes={contributes} />
    </>
  );
}
