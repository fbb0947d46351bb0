import Link from 'next/link';
import { FieldRows } from '@/components/samples/field-rows';
import { type HistoryItem, HistoryTimeline } from '@/components/samples/history-timeline';
import { DeleteAction } from '@/components/ui/delete-action';
import type { BiodataSample } from '@/lib/biodata-samples/contract';
import { BiodataState, releaseWords } from './biodata-state';
import { RegisterOne } from './register-one';

/**
 * A biodata profile's sample as a page (app/(portal)/samples/[svcId]): where it stands at ENA, its register action
 * while it is not there, its history, and its fields as the checklist names them.
 */
export function BiodataSampleView({
  sample,
  profileTitle,
  history,
  removal,
  contributes,
}: {
  sample: BiodataSample;
  profileTitle: string;
  history: HistoryItem[];
  removal: { refusal: string | null } | null;
  contributes: boolean;
}) {
  const own = {
    svc_id: sample.svc_id,
    sample: sample.sample,
    checklist_id: sample.checklist_id,
    TAXON_ID: sample.TAXON_ID,
    SCIENTIFIC_NAME: sample.SCIENTIFIC_NAME,
    biosampleAccession: sample.biosampleAccession ?? '',
    sraAccession: sample.sraAccession ?? '',
    release_date: sample.release_date ?? '',
    time_created: sample.time_created,
    time_updated: sample.time_updated,
  };
  const rows = [...Object.entries(own), ...Object.entries(sample.fields)];
  const registrable = sample.status === 'confirmed' || sample.status === 'refused';
  return (
    <>
      <p className="inline">
        <Link href={`/profiles/${sample.profile_id}#samples`}>← Samples of {profileTitle}</Link>
      </p>
      <h1>
        <em>{sample.SCIENTIFIC_NAME}</em> <span className="mono muted">{sample.sample}</span>
      </h1>
      <p>
        <BiodataState sample={sample} /> · {releaseWords(sample.release_date)} · checklist{' '}
        <span className="mono">{sample.checklist_id}</span> · profile <Link href={`/profiles/${sample.profile_id}`}>{profileTitle}</Link>
      </p>
      {sample.status === 'refused' && (
        <p className="notice">
          Correct what ENA named in the sheet and upload it again on the profile’s page (the same <span className="mono">sample</span> names
          update these samples), then register it again.
        </p>
      )}
      {contributes && registrable && <RegisterOne svcId={sample.svc_id} name={sample.sample} />}
      {removal && (
        <DeleteAction
          noun="sample"
          name={sample.sample}
          url={`/api/sample/${sample.svc_id}`}
          refusal={removal.refusal}
          redirectTo={`/profiles/${sample.profile_id}`}
        >
          Sample {sample.sample} will be deleted from profile {profileTitle}, with its history. It was never registered at ENA.
        </DeleteAction>
      )}
      <h2>History</h2>
      <HistoryTimeline history={history} />
      <h2>Fields</h2>
      <FieldRows rows={rows} />
    </>
  );
}
