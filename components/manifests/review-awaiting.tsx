'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { FormOutcome, SubmitButton, showServerErrors, TextAreaField } from '@/components/ui/form';
import { QueryState } from '@/components/ui/query-state';
import { plural, samplesWord } from '@/components/ui/words';
import { useZodForm } from '@/components/ui/zod-form';
import { api } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { Decision, DecisionRequest } from '@/lib/samples/contract';
import { Group, GroupPager, useReview } from './review-group';
import { OFFSET_PARAM, offsetOf } from './review-query';
import styles from './review-queue.module.css';

const rejectRule = () => import('./reject-form').then((m) => m.RejectSchema);

/** The samples awaiting the reader's decision, by manifest, with the bar that accepts or rejects the ticked ones. */
export function AwaitingSamples() {
  const qc = useQueryClient();
  const pathname = usePathname();
  const search = useSearchParams();
  const awaiting = useReview('awaiting', offsetOf(search, OFFSET_PARAM.awaiting));
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [step, setStep] = useState<Decision | null>(null);
  const [outcome, setOutcome] = useState<{ error?: string; success?: string }>({});
  const form = useZodForm(rejectRule, { reason: '' });

  const decide = useMutation({
    mutationFn: (body: DecisionRequest) => api.POST('/api/sample/decision', { body }),
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

  const shown = awaiting.data?.data.flatMap((g) => g.svc_ids) ?? [];
  const href = (name: string) => (offset: number) => withParams(pathname, search, { [name]: offset ? String(offset) : undefined });
  const count = chosen.size;
  const bar = (awaiting.data?.number_found ?? 0) > 0;
  // the bar waits after the list until there is something to decide on, then follows the reader (CSS)
  const acting = count > 0 || step !== null || Boolean(outcome.success || outcome.error);
  const filtered = ['profile', 'uploader', 'manifest'].some((k) => search.get(k));
  // what the last decision came to is said where it was made: in the decision bar, or, once nothing is left to
  // decide on (no bar), under the heading
  const said = <FormOutcome error={outcome.error} success={outcome.success} />;

  return (
    <section aria-labelledby="awaiting-heading" className={styles.section}>
      <h2 id="awaiting-heading">Awaiting your decision</h2>
      {!bar && said}
      <QueryState
        query={awaiting}
        what="the samples awaiting review"
        isEmpty={(d) => d.number_found === 0}
        empty={filtered ? 'Nothing this filter finds awaits your decision.' : 'Nothing awaits your decision.'}
      >
        {(d) => (
          <>
            <p>
              {samplesWord(d.samples_found)} in {plural(d.number_found, 'manifest')} {d.samples_found === 1 ? 'awaits' : 'await'} your
              decision, {d.sort === 'newest' ? 'the manifest you were told about last first' : 'the oldest manifest first'}.
            </p>
            {d.data.map((g) => (
              <Group key={g.manifest_id} group={g} selection={{ chosen, setChosen }} />
            ))}
            <GroupPager page={d} hrefFor={href('offset')} />
          </>
        )}
      </QueryState>
      {bar && (
        <fieldset className={acting ? `${styles.actions} ${styles.acting}` : styles.actions}>
          <legend className="visually-hidden">Decide on the selected samples</legend>
          {said}
          <p className={styles.ticked}>{count ? `${samplesWord(count)} ticked` : 'Tick the samples to decide on.'}</p>
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
                Accept {samplesWord(count)}? This records your approval of the associated types marked “yours”. A sample whose approvals are
                then complete is sent on at once: its specimen gets a ToLID, and the sample is registered at ENA as a public BioSample,
                which cannot be undone.
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
  );
}
