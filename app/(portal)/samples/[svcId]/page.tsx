import type { Metadata } from 'next';
import Link from 'next/link';
import { BiodataSampleView } from '@/components/biodata-samples/sample-view';
import { SampleImagesSection } from '@/components/images/specimen-images';
import { FieldRows } from '@/components/samples/field-rows';
import { HistoryTimeline } from '@/components/samples/history-timeline';
import { RightsHoldNotice } from '@/components/samples/rights-hold-notice';
import { StatusWords } from '@/components/samples/sample-state';
import { DeleteAction } from '@/components/ui/delete-action';
import { isBiodataSample, readBiodataSample } from '@/lib/biodata-samples/read';
import { config } from '@/lib/config';
import { inManifestOrder } from '@/lib/manifests';
import { roleAllows, roleOn } from '@/lib/profiles/access';
import { biodataRemovalState } from '@/lib/removal/biodata-samples';
import { sampleRemovalState } from '@/lib/removal/samples';
import { sampleWithHistory } from '@/lib/samples/views';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Sample' };

export default async function SamplePage({ params }: { params: Promise<{ svcId: string }> }) {
  const { svcId } = await params;
  // a biodata profile's sample (lib/biodata-samples) has a page of its own kind
  const biodata = await pageData(async (db, u) => {
    if (!(await isBiodataSample(db, svcId))) return { view: null };
    const view = await readBiodataSample(db, u, svcId);
    const role = await roleOn(db, u, view.profile);
    return {
      view,
      contributes: roleAllows(role, 'contribute'),
      removal: await biodataRemovalState(db, u, view.sample, view.profile.ownerId),
    };
  });
  if (biodata.view) {
    return (
      <BiodataSampleView
        sample={biodata.view.sample}
        profileTitle={biodata.view.profile.title}
        history={biodata.view.history}
        removal={biodata.removal ?? null}
        contributes={biodata.contributes ?? false}
      />
    );
  }
  const { sample, profileTitle, history, access, record, permits, removal } = await pageData(async (db, u) => {
    const view = await sampleWithHistory(db, u, svcId);
    return { ...view, removal: await sampleRemovalState(db, u, view.sample) };
  });
  const full = access === 'full';
  const system = {
    svc_id: sample.id,
    manifest_id: sample.manifestId,
    tol_project: sample.project.toUpperCase(),
    manifest_version: sample.manifestVersion,
    status: sample.status,
    public_name: sample.publicName ?? '',
    biosampleAccession: sample.biosampleAccession ?? '',
    sraAccession: sample.sraAccession ?? '',
    submissionAccession: sample.submissionAccession ?? '',
    time_created: sample.timeCreated.toISOString(),
    time_updated: sample.timeUpdated.toISOString(),
  };
  const rows = full
    ? [...Object.entries(system), ...inManifestOrder(sample.project, sample.manifestVersion, sample.fields)]
    : inManifestOrder(sample.project, sample.manifestVersion, record ?? {}, Object.keys(system));
  return (
    <>
      <p className="inline">
        {full && <Link href={`/manifests/${sample.manifestId}`}>← Manifest</Link>}
        <Link href="/samples">← All samples</Link>
      </p>
      <h1>
        <em>{sample.scientificName}</em> <span className="mono muted">{sample.tubeOrWellId}</span>
      </h1>
      <p>
        <StatusWords status={sample.status} /> · profile{' '}
        {full ? <Link href={`/profiles/${sample.profileId}`}>{profileTitle}</Link> : profileTitle}
        {full && sample.status === 'rejected' && sample.rejectionReason && <> · rejected: {sample.rejectionReason}</>}
      </p>
      {full && sample.status === 'private' && <RightsHoldNotice sample={sample} hubUrl={config().LOCAL_CONTEXTS_URL} />}
      {full && sample.status !== 'rejected' && sample.status !== 'private' && sample.statusDetail && (
        <p className="notice">{sample.statusDetail}</p>
      )}
      {removal && (
        <DeleteAction
          noun="sample"
          name={sample.tubeOrWellId ?? sample.id}
          url={`/api/sample/${sample.id}`}
          refusal={removal.refusal}
          redirectTo={`/profiles/${sample.profileId}`}
        >
          Sample {sample.tubeOrWellId ?? sample.id}
          {sample.specimenId && <> (specimen {sample.specimenId})</>} will be deleted from profile {profileTitle}. Its history goes too, and
          so do its specimen record and its manifest if this is their last sample.
        </DeleteAction>
      )}
      {permits.length > 0 && (
        <>
          <h2>Permits</h2>
          <ul className="file-names">
            {permits.map((p) => (
              <li key={`${p.kind}-${p.stored_name}`}>
                {p.kind.charAt(0) + p.kind.slice(1).toLowerCase()} permit:{' '}
                <a href={`/api/sample/${sample.id}/permits/${encodeURIComponent(p.stored_name)}`} download>
                  {p.stored_name}
                </a>{' '}
                <span className="muted">({Math.ceil(p.size_in_bytes / 1024)} KB)</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {full && sample.specimenId && <SampleImagesSection svcId={sample.id} specimenId={sample.specimenId} manifestId={sample.manifestId} />}
      {!full && (
        <p className="notice">You see this sample as the public API shows it: exported fields only, and changes without who made them.</p>
      )}
      <h2>History</h2>
      <HistoryTimeline history={history} />
      <p>
        <Link href={`/audit?svc_id=${sample.id}`}>All changes to this sample</Link> in the audit
        {sample.specimenId && (
          <>
            , or{' '}
            <Link href={`/audit?specimen=${encodeURIComponent(sample.specimenId)}`}>to every sample of specimen {sample.specimenId}</Link>
          </>
        )}
        .
      </p>
      <h2>Fields</h2>
      <FieldRows
        rows={rows}
        cell={(k, v) =>
          k === 'status' && full ? (
            // the state in the portal's words, with the API's name the record holds
            <>
              <StatusWords status={v} /> <span className="mono muted">({v})</span>
            </>
          ) : (
            v
          )
        }
      />
    </>
  );
}
