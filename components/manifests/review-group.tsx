'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { type Dispatch, memo, type SetStateAction, Suspense, useState } from 'react';
import { ManifestThumbnails } from '@/components/images/specimen-images';
import { Approvals } from '@/components/samples/approvals';
import { RetryRegistration } from '@/components/samples/retry-registration';
import { Accession, SampleState, UNSETTLED } from '@/components/samples/sample-state';
import { tubeColumn } from '@/components/samples/tube-column';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { Pager } from '@/components/ui/pager';
import { useUrlCheck } from '@/components/ui/url-check';
import { When } from '@/components/ui/when';
import { sampleName, samplesWord } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import { paramsObject } from '@/lib/client/search';
import type { ReviewFilter, ReviewGroup, ReviewSample } from '@/lib/samples/review-contract';
import { REVIEW_FILTERS } from '@/lib/samples/review-lists';
import { GROUPS, type ReviewState, ROWS, reviewKey, reviewQuery } from './review-query';
import styles from './review-queue.module.css';

/** The review queue's lists are pages of manifests, each with its samples: one manifest's group, its columns, the pager. */

const nameOf = sampleName;
export const fileOf = (g: ReviewGroup) => g.file_name || `manifest ${g.manifest_id}`;

/**
 * The page URL's order and filters (sort, profile, uploader, manifest), as the page's server checked them with the
 * API's schema (UrlChecked), so that a reload or a shared link shows the same queue. Both lists of the page follow them.
 */
export function useReviewFilter() {
  return { input: paramsObject(useSearchParams(), REVIEW_FILTERS), parsed: useUrlCheck<ReviewFilter>() };
}

/** A page of manifests of the queue: awaiting the reader's decision, or decided lately, in the URL's order and filter. */
export function useReview(state: ReviewState, offset: number) {
  const { input, parsed } = useReviewFilter();
  return useQuery({
    queryKey: reviewKey(state, offset, input),
    // a link whose filter is not valid is said where the list would be, naming what is wrong in it
    queryFn: () =>
      parsed.success
        ? api.GET('/api/sample/review', { params: { query: reviewQuery(parsed.data, state, offset) } })
        : Promise.reject(new Error(`this link’s ${Object.keys(parsed.errors).join(' and ')} is not valid`)),
    retry: parsed.success ? undefined : false,
    refetchInterval: (q) => followed(state, q.state.data?.data ?? []),
  });
}

// decided samples are followed until each, shown or not, has reached a state that does not end by itself
const followed = (state: ReviewState, groups: ReviewGroup[]) =>
  state === 'decided' && groups.some((g) => g.statuses.some((s) => UNSETTLED.has(s.status))) ? 2000 : false;

/** Every sample of one manifest of a list, described in full, once its reader asks to see them all. */
function useWholeGroup(state: ReviewState, manifestId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['review', state, 'manifest', manifestId],
    queryFn: () =>
      api
        .GET('/api/sample/review', { params: { query: { state, manifest: manifestId, limit: 1 } } })
        .then((answer) => answer.data[0] ?? null),
    enabled,
    refetchInterval: (q) => followed(state, q.state.data ? [q.state.data] : []),
  });
}

function Permits({ sample }: { sample: ReviewSample }) {
  if (!sample.permits.length) return <span className="muted">none</span>;
  return (
    <ul className={styles.permits}>
      {sample.permits.map((p) => (
        <li key={`${p.kind}-${p.file_name}`}>
          {p.kind.charAt(0) + p.kind.slice(1).toLowerCase()}:{' '}
          {p.url ? (
            <a href={p.url} download aria-label={`${p.kind.toLowerCase()} permit ${p.file_name} of ${nameOf(sample)}`}>
              {p.file_name}
            </a>
          ) : (
            <span className="field-error">{p.file_name} (missing)</span>
          )}
        </li>
      ))}
    </ul>
  );
}

type Column = TableDefinition<ReviewSample>['columns'][number];
interface Shown {
  /** some sample of the manifest has permits, or an SRA accession */
  permits: boolean;
  sra: boolean;
  onRetried?: () => void;
}

const tube: Column = tubeColumn();
const permitsColumn: Column = { id: 'permits', header: 'Permits', cell: (s) => <Permits sample={s} /> };
const scientificName: Column = {
  id: 'name',
  header: 'Scientific name',
  cell: (s) => (
    <>
      <em>{s.SCIENTIFIC_NAME}</em> <span className="muted">(taxon {s.TAXON_ID})</span>
    </>
  ),
};
const specimen: Column = { id: 'specimen', header: 'Specimen', nowrap: true, cell: (s) => <span className="mono">{s.SPECIMEN_ID}</span> };
const sra: Column = {
  id: 'sra',
  header: 'SRA',
  cell: (s) => (s.sraAccession ? <Accession value={s.sraAccession} /> : <span className="muted">—</span>),
};

/** Awaiting a decision: what identifies each sample, and the approvals it has and awaits. */
const awaitingColumns = (shown: Shown): Column[] => [
  tube,
  ...(shown.permits ? [permitsColumn] : []),
  scientificName,
  specimen,
  {
    id: 'waiting',
    header: 'Approval',
    cell: (s) => (
      <>
        <SampleState sample={s} waitingFor={s.waiting_for} yours={s.waiting_for_you} />
        <Approvals sample={s} />
      </>
    ),
  },
  ...(shown.sra ? [sra] : []),
];

/** Decided lately: where each sample stands now, its ToLID, who decided and when, and a retry where it failed. */
const decidedColumns = (shown: Shown): Column[] => [
  tube,
  {
    id: 'state',
    header: 'State',
    cell: (s) => (
      <>
        <SampleState sample={s} waitingFor={s.waiting_for} yours={s.waiting_for_you} />
        {s.status === 'pending' && <Approvals sample={s} />}
        {s.registration_failed && (
          <div>
            <RetryRegistration svcIds={[s.svc_id]} name={nameOf(s)} onDone={shown.onRetried} />
          </div>
        )}
      </>
    ),
  },
  {
    id: 'tolid',
    header: 'ToLID',
    nowrap: true,
    cell: (s) => (s.public_name ? <span className="mono">{s.public_name}</span> : <span className="muted">—</span>),
  },
  ...(shown.permits ? [permitsColumn] : []),
  scientificName,
  specimen,
  {
    id: 'decided',
    header: 'Decided',
    cell: (s) =>
      s.decided_at ? (
        <>
          <When value={s.decided_at} />
          {s.decided_by && <span className="muted"> by {s.decided_by}</span>}
        </>
      ) : (
        <span className="muted">—</span>
      ),
  },
  ...(shown.sra ? [sra] : []),
];

/** The pager of a list of manifests' samples, when there are more manifests than a page shows. */
export function GroupPager({
  page,
  hrefFor,
}: {
  page: { offset: number; number_found: number; data: unknown[] };
  hrefFor: (offset: number) => string;
}) {
  return page.number_found > GROUPS ? (
    <Pager offset={page.offset} limit={GROUPS} total={page.number_found} shown={page.data.length} noun="manifests" hrefFor={hrefFor} />
  ) : null;
}

/** One manifest's samples: awaiting (with checkboxes) or decided (with their state and a retry where it failed). */
function GroupOfSamples({
  group,
  selection,
  onRetried,
}: {
  group: ReviewGroup;
  selection?: { chosen: Set<string>; setChosen: Dispatch<SetStateAction<Set<string>>> };
  onRetried?: () => void;
}) {
  const [all, setAll] = useState(false);
  const state: ReviewState = selection ? 'awaiting' : 'decided';
  const headingId = `group-${state}-${group.manifest_id}`;
  // the page describes a manifest's first rows; the rest are read when asked for
  const whole = useWholeGroup(state, group.manifest_id, all);
  const rows = all && whole.data ? whole.data.samples : group.samples;
  const failed = group.failed_ids;
  const file = fileOf(group);

  const table: TableDefinition<ReviewSample> = {
    noun: 'samples',
    rowKey: (s) => s.svc_id,
    columns: (selection ? awaitingColumns : decidedColumns)({
      permits: group.samples.some((s) => s.permits.length),
      sra: group.samples.some((s) => s.sraAccession),
      onRetried,
    }),
  };

  // each group is a boundary of its own: the page's first drawing hydrates the groups one after the other, each in
  // slices a phone can interrupt, rather than the whole queue in one long task. React's server sends a large boundary
  // after the rest of the page and shows it a moment later; until then a fifth of a screen holds its place, so that
  // what follows a page of groups (the decision bar, the pager) is first drawn out of view, not in view and then
  // pushed away (docs/benchmarks.md, "The review queue's groups held in place"); the place says it is being filled
  return (
    <Suspense fallback={<div className={styles.held} aria-busy="true" />}>
      <section aria-labelledby={headingId} className={styles.group}>
        <h3 id={headingId} className={styles.groupHeading}>
          <Link href={`/manifests/${group.manifest_id}`}>{file}</Link>
        </h3>
        <p className={styles.meta}>
          {group.tol_project} {group.version} · uploaded {group.uploaded_by ? `by ${group.uploaded_by} ` : ''}
          <When value={group.uploaded_at} /> to <Link href={`/profiles/${group.profile_id}`}>{group.profile_title}</Link> ·{' '}
          {selection
            ? `${group.samples_found} of ${samplesWord(group.manifest_samples)} awaiting your decision`
            : `${group.samples_found} of ${samplesWord(group.manifest_samples)} decided lately`}
        </p>
        <ManifestThumbnails manifestId={group.manifest_id} file={file} />
        {failed.length > 1 && (
          <p>
            Registration failed for {samplesWord(failed.length)} of this manifest.{' '}
            <RetryRegistration svcIds={failed} name={`the ${samplesWord(failed.length)} of ${file} that failed`} onDone={onRetried} />
          </p>
        )}
        <DataTable<ReviewSample>
          caption={selection ? `Samples of ${file} awaiting your decision` : `Samples of ${file} decided lately`}
          table={table}
          rows={rows}
          selection={
            selection && {
              selected: selection.chosen,
              // only this group's ticks, laid on the selection as it is now: the group is not drawn again when another
              // group's ticks change (Group below), so the set it was drawn with may be out of date for theirs
              onChange: (next) =>
                selection.setChosen((current) => {
                  const out = new Set(current);
                  for (const id of group.svc_ids) {
                    if (next.has(id)) out.add(id);
                    else out.delete(id);
                  }
                  return out;
                }),
              label: (s) => `Select sample ${nameOf(s)}`,
              allLabel: `Select all ${samplesWord(group.samples_found)} of ${file}`,
              allKeys: group.svc_ids,
            }
          }
        />
        {group.samples_found > ROWS && (
          <button type="button" onClick={() => setAll((v) => !v)} aria-expanded={all} aria-busy={all && whole.isPending}>
            {all
              ? whole.isPending
                ? `Reading all ${samplesWord(group.samples_found)} of ${file}…`
                : `Show the first ${ROWS} only`
              : `Show all ${samplesWord(group.samples_found)} of ${file}`}
          </button>
        )}
        {all && whole.isError && (
          <p className="field-error">
            The rest of {file} could not be read: {whole.error.message}
          </p>
        )}
      </section>
    </Suspense>
  );
}

type GroupProps = Parameters<typeof GroupOfSamples>[0];

/**
 * A group drawn again only when something of its own changed: ticking a sample of one manifest leaves the other
 * manifests' tables as they were, though the selection they share is a new set.
 */
export const Group = memo(GroupOfSamples, (before: GroupProps, after: GroupProps) => {
  if (before.group !== after.group || before.onRetried !== after.onRetried) return false;
  if (!before.selection || !after.selection) return before.selection === after.selection;
  const was = before.selection.chosen;
  const is = after.selection.chosen;
  return before.selection.setChosen === after.selection.setChosen && after.group.svc_ids.every((id) => was.has(id) === is.has(id));
});
