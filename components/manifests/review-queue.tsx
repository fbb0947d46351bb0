'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { z } from 'zod';
import { Approvals } from '@/components/samples/approvals';
import { RetryRegistration } from '@/components/samples/retry-registration';
import { Accession, SampleState, UNSETTLED } from '@/components/samples/sample-state';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton, showServerErrors, TextAreaField, useZodForm } from '@/components/ui/form';
import { Pager } from '@/components/ui/pager';
import { When } from '@/components/ui/when';
import { sampleName, samplesWord } from '@/components/ui/words';
import { apiFetch } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import {
  DECIDED_DAYS,
  type Decision,
  type DecisionAnswer,
  type DecisionRequest,
  DecisionRequestSchema,
  type ReviewGroup,
  type ReviewQueue as ReviewQueueAnswer,
  type ReviewSample,
} from '@/lib/samples/contract';
import { PrivateSamples } from './private-samples';
import styles from './review-queue.module.css';

/**
 * A sample manager's review queue: the samples awaiting a decision, grouped by the manifest that brought them (who
 * uploaded it, when, into which profile), to tick one by one, by manifest or all at once, and accept or reject with
 * a reason. Decided samples stay listed below with where they stand — waiting for a ToLID, registering, registered
 * with their accession, rejected with the reason — refreshed until they settle, with a retry where registration failed.
 */

const GROUPS = 10;
/** rows of a manifest shown before "Show all" */
const ROWS = 50;

const manifestsWord = (n: number) => (n === 1 ? '1 manifest' : `${n.toLocaleString('en-GB')} manifests`);
const nameOf = sampleName;
const fileOf = (g: ReviewGroup) => g.file_name || `manifest ${g.manifest_id}`;

// the reason goes to the uploader: a rejection must say why
const RejectSchema = DecisionRequestSchema.pick({ reason: true }).extend({
  reason: z.string().trim().min(1, 'Say why the samples are rejected; the uploader reads it.').max(2000),
});

function useReview(state: 'awaiting' | 'decided', offset: number) {
  return useQuery({
    queryKey: ['review', state, offset],
    queryFn: () => apiFetch<ReviewQueueAnswer>(`/api/sample/review?state=${state}&limit=${GROUPS}&offset=${offset}`),
    // decided samples are followed until each has reached a state that does not end by itself
    refetchInterval: (q) =>
      state === 'decided' && q.state.data?.data.some((g) => g.samples.some((s) => UNSETTLED.has(s.status))) ? 2000 : false,
  });
}

export function ReviewQueue() {
  const qc = useQueryClient();
  const pathname = usePathname();
  const search = useSearchParams();
  const offsetOf = (name: string) => Math.max(0, Number.parseInt(search.get(name) ?? '0', 10) || 0);
  const awaiting = useReview('awaiting', offsetOf('offset'));
  const decided = useReview('decided', offsetOf('decided_offset'));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [step, setStep] = useState<Decision | null>(null);
  const [outcome, setOutcome] = useState<{ error?: string; success?: string }>({});
  const form = useZodForm(RejectSchema, { reason: '' });

  const decide = useMutation({
    mutationFn: (body: DecisionRequest) => apiFetch<DecisionAnswer>('/api/sample/decision', { method: 'POST', json: body }),
    onSuccess: (answer) => {
      const n = answer.accepted.length || answer.rejected.length;
      setOutcome({
        success:
          answer.accepted.length > 0
            ? `Decision recorded: ${answer.accepted.length} accepted. Follow ${n === 1 ? 'its' : 'their'} registration under “Decided lately” below.`
            : `Decision recorded: ${answer.rejected.length} rejected. The uploader is told the reason.`,
      });
      setChosen(new Set());
      setStep(null);
      form.reset({ reason: '' });
      void qc.invalidateQueries({ queryKey: ['review'] });
    },
    onError: (err) => setOutcome({ error: showServerErrors(form, err) }),
  });

  const shown = awaiting.data?.data.flatMap((g) => g.samples.map((s) => s.svc_id)) ?? [];
  const href = (name: string) => (offset: number) => withParams(pathname, search, { [name]: offset ? String(offset) : undefined });
  const count = chosen.size;

  return (
    <>
      <section aria-labelledby="awaiting-heading" className={styles.section}>
        <h2 id="awaiting-heading">Awaiting your decision</h2>
        {awaiting.isError ? (
          <p role="alert" className="notice error">
            Could not load the samples awaiting review: {awaiting.error.message}
          </p>
        ) : !awaiting.data ? (
          <p aria-busy="true" className="muted">
            Loading the samples awaiting review…
          </p>
        ) : awaiting.data.number_found === 0 ? (
          <p className="muted">Nothing awaits your decision.</p>
        ) : (
          <>
            <p>
              {samplesWord(awaiting.data.samples_found)} in {manifestsWord(awaiting.data.number_found)}{' '}
              {awaiting.data.samples_found === 1 ? 'awaits' : 'await'} your decision, oldest manifest first.
            </p>
            {awaiting.data.data.map((g) => (
              <Group key={g.manifest_id} group={g} selection={{ chosen, setChosen }} />
            ))}
            <GroupPager page={awaiting.data} hrefFor={href('offset')} />
          </>
        )}
        <FormOutcome error={outcome.error} success={outcome.success} />
        {awaiting.data && awaiting.data.number_found > 0 && (
          <fieldset className={styles.actions}>
            <legend className="visually-hidden">Decide on the selected samples</legend>
            <label className={styles.all}>
              <input
                type="checkbox"
                checked={shown.length > 0 && shown.every((id) => chosen.has(id))}
                onChange={(e) => {
                  const next = new Set(chosen);
                  for (const id of shown) {
                    if (e.target.checked) next.add(id);
                    else next.delete(id);
                  }
                  setChosen(next);
                }}
              />
              Select all {samplesWord(shown.length)} on this page
            </label>
            {step === null ? (
              <div className="inline">
                <button
                  className="primary"
                  type="button"
                  disabled={!count}
                  onClick={() => {
                    setOutcome({});
                    setStep('accept');
                  }}
                >
                  Accept selected ({count})
                </button>
                <button
                  className="danger"
                  type="button"
                  disabled={!count}
                  onClick={() => {
                    setOutcome({});
                    setStep('reject');
                  }}
                >
                  Reject selected ({count})
                </button>
              </div>
            ) : step === 'accept' ? (
              <div className={styles.confirm}>
                <p>
                  Accept {samplesWord(count)}? This records your approval of the associated types marked “yours”. A sample whose approvals
                  are then complete is sent on at once: its specimen gets a ToLID, and the sample is registered at ENA as a public
                  BioSample, which cannot be undone.
                </p>
                <div className="inline">
                  <button
                    className="primary"
                    type="button"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ svc_ids: [...chosen], decision: 'accept' })}
                  >
                    {decide.isPending ? 'Accepting…' : `Accept ${samplesWord(count)}`}
                  </button>
                  <button type="button" onClick={() => setStep(null)} disabled={decide.isPending}>
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <form
                className={styles.confirm}
                aria-label="Reject the selected samples"
                noValidate
                onSubmit={form.handleSubmit((v) => decide.mutate({ svc_ids: [...chosen], decision: 'reject', reason: v.reason }))}
              >
                <TextAreaField
                  form={form}
                  name="reason"
                  label="Reason for rejecting"
                  hint="The uploader reads it; it is never shown by the public API."
                  rows={2}
                />
                <div className="inline">
                  <SubmitButton tone="danger" busy={decide.isPending} busyLabel="Rejecting…">
                    Reject {samplesWord(count)}
                  </SubmitButton>
                  <button type="button" onClick={() => setStep(null)} disabled={decide.isPending}>
                    Cancel
                  </button>
                </div>
              </form>
            )}
          </fieldset>
        )}
      </section>

      <PrivateSamples />

      <section aria-labelledby="decided-heading" className={styles.section}>
        <h2 id="decided-heading">Decided lately</h2>
        <p className="muted">
          Samples you decide on that were decided in the last {DECIDED_DAYS} days, and those you approved that still await other approvers,
          latest decision first, with where each stands now. The list refreshes by itself while samples are on their way to ENA.
        </p>
        {decided.isError ? (
          <p role="alert" className="notice error">
            Could not load the decided samples: {decided.error.message}
          </p>
        ) : !decided.data ? (
          <p aria-busy="true" className="muted">
            Loading the decided samples…
          </p>
        ) : decided.data.number_found === 0 ? (
          <p className="muted">No sample was decided in the last {DECIDED_DAYS} days.</p>
        ) : (
          <>
            {decided.data.data.map((g) => (
              <Group key={g.manifest_id} group={g} onRetried={() => void qc.invalidateQueries({ queryKey: ['review', 'decided'] })} />
            ))}
            <GroupPager page={decided.data} hrefFor={href('decided_offset')} />
          </>
        )}
      </section>
    </>
  );
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

/** The pager of a list of manifests' samples, when there are more manifests than a page shows. */
function GroupPager({
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
function Group({
  group,
  selection,
  onRetried,
}: {
  group: ReviewGroup;
  selection?: { chosen: Set<string>; setChosen: (s: Set<string>) => void };
  onRetried?: () => void;
}) {
  const [all, setAll] = useState(false);
  const headingId = `group-${selection ? 'awaiting' : 'decided'}-${group.manifest_id}`;
  const rows = all ? group.samples : group.samples.slice(0, ROWS);
  const hasPermits = group.samples.some((s) => s.permits.length);
  const failed = group.samples.filter((s) => s.registration_failed).map((s) => s.svc_id);
  const file = fileOf(group);

  const table: TableDefinition<ReviewSample> = {
    noun: 'samples',
    rowKey: (s) => s.svc_id,
    columns: [
      {
        id: 'tube',
        header: 'Tube or well',
        key: true,
        nowrap: true,
        cell: (s) => (
          <Link href={`/samples/${s.svc_id}`} className="mono">
            {nameOf(s)}
          </Link>
        ),
      },
      ...(selection
        ? []
        : [
            {
              id: 'state',
              header: 'State',
              cell: (s: ReviewSample) => (
                <>
                  <SampleState sample={s} waitingFor={s.waiting_for} />
                  {s.status === 'pending' && <Approvals sample={s} />}
                  {s.registration_failed && (
                    <div>
                      <RetryRegistration svcIds={[s.svc_id]} name={nameOf(s)} onDone={onRetried} />
                    </div>
                  )}
                </>
              ),
            },
            {
              id: 'tolid',
              header: 'ToLID',
              nowrap: true,
              cell: (s: ReviewSample) => (s.public_name ? <span className="mono">{s.public_name}</span> : <span className="muted">—</span>),
            },
          ]),
      ...(hasPermits ? [{ id: 'permits', header: 'Permits', cell: (s: ReviewSample) => <Permits sample={s} /> }] : []),
      {
        id: 'name',
        header: 'Scientific name',
        cell: (s) => (
          <>
            <em>{s.SCIENTIFIC_NAME}</em> <span className="muted">(taxon {s.TAXON_ID})</span>
          </>
        ),
      },
      { id: 'specimen', header: 'Specimen', nowrap: true, cell: (s) => <span className="mono">{s.SPECIMEN_ID}</span> },
      ...(selection
        ? [
            {
              id: 'waiting',
              header: 'Approval',
              cell: (s: ReviewSample) => (
                <>
                  <SampleState sample={s} waitingFor={s.waiting_for} />
                  <Approvals sample={s} />
                </>
              ),
            },
          ]
        : [
            {
              id: 'decided',
              header: 'Decided',
              cell: (s: ReviewSample) =>
                s.decided_at ? (
                  <>
                    <When value={s.decided_at} />
                    {s.decided_by && <span className="muted"> by {s.decided_by}</span>}
                  </>
                ) : (
                  <span className="muted">—</span>
                ),
            },
          ]),
      ...(group.samples.some((s) => s.sraAccession)
        ? [
            {
              id: 'sra',
              header: 'SRA',
              cell: (s: ReviewSample) => (s.sraAccession ? <Accession value={s.sraAccession} /> : <span className="muted">—</span>),
            },
          ]
        : []),
    ],
  };

  return (
    <section aria-labelledby={headingId} className={styles.group}>
      <h3 id={headingId} className={styles.groupHeading}>
        <Link href={`/manifests/${group.manifest_id}`}>{file}</Link>
      </h3>
      <p className={styles.meta}>
        {group.tol_project} {group.version} · uploaded {group.uploaded_by ? `by ${group.uploaded_by} ` : ''}
        <When value={group.uploaded_at} /> to <Link href={`/profiles/${group.profile_id}`}>{group.profile_title}</Link> ·{' '}
        {selection
          ? `${group.samples.length} of ${samplesWord(group.manifest_samples)} awaiting your decision`
          : `${group.samples.length} of ${samplesWord(group.manifest_samples)} decided lately`}
      </p>
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
            onChange: selection.setChosen,
            label: (s) => `Select sample ${nameOf(s)}`,
            allLabel: `Select all ${samplesWord(group.samples.length)} of ${file}`,
            allKeys: group.samples.map((s) => s.svc_id),
          }
        }
      />
      {group.samples.length > ROWS && (
        <button type="button" onClick={() => setAll((v) => !v)} aria-expanded={all}>
          {all ? `Show the first ${ROWS} only` : `Show all ${samplesWord(group.samples.length)} of ${file}`}
        </button>
      )}
    </section>
  );
}
