'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { tubeColumn } from '@/components/samples/tube-column';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { FormOutcome } from '@/components/ui/form';
import { Pager } from '@/components/ui/pager';
import { When } from '@/components/ui/when';
import { sampleName, samplesWord } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { PrivateSample, RightsCheckAnswer } from '@/lib/samples/review-contract';
import { offsetOf, PRIVATE_OFFSET, PRIVATE_PAGE, privateSamplesKey } from './review-query';
import styles from './review-queue.module.css';

/**
 * The private samples of a manager's projects, apart from those awaiting a decision: ERGA samples under
 * traditional-knowledge rights that cannot be decided (nor sent to ENA) until the Local Contexts Hub says the
 * community made their project public. Each shows its hub project, when the hub last answered and what it said; the
 * service asks again every hour, and "Check rights now" asks at once for the samples shown.
 */

const _nameOf = sampleName;

const table: TableDefinition<PrivateSample> = {
  noun: 'private samples',
  rowKey: (s) => s.svc_id,
  columns: [
    tubeColumn(),
    {
      id: 'name',
      header: 'Scientific name',
      cell: (s) => (
        <>
          <em>{s.SCIENTIFIC_NAME}</em> <span className="muted">(taxon {s.TAXON_ID})</span>
        </>
      ),
    },
    {
      id: 'project',
      header: 'Local Contexts project',
      cell: (s) =>
        s.project_id && s.project_url ? (
          <a
            href={s.project_url}
            className="mono"
            target="_blank"
            rel="noreferrer"
            aria-label={`Project ${s.project_id} at the Local Contexts Hub`}
          >
            {s.project_id}
          </a>
        ) : (
          <span className="muted">none named</span>
        ),
    },
    {
      id: 'checked',
      header: 'Last checked',
      nowrap: true,
      cell: (s) => (s.rights_checked_at ? <When value={s.rights_checked_at} /> : <span className="muted">not yet</span>),
    },
    {
      id: 'why',
      header: 'Why it waits',
      cell: (s) => s.status_detail ?? <span className="muted">The hub has not been asked about its project yet.</span>,
    },
  ],
};

/** What a check found, in a sentence or two. */
function summary(answer: RightsCheckAnswer): { error?: string; success?: string } {
  const count = (outcome: string) => answer.data.filter((d) => d.outcome === outcome).length;
  const unreachable = count('hub_unreachable');
  if (unreachable === answer.data.length && unreachable > 0) {
    return { error: `The Local Contexts Hub could not be reached: nothing changed. ${answer.hub.detail}` };
  }
  const cleared = count('cleared');
  const waiting = count('not_public') + count('unknown_project');
  const parts = [
    cleared ? `${samplesWord(cleared)} cleared: ${cleared === 1 ? 'it awaits' : 'they await'} your decision above` : '',
    waiting
      ? `${samplesWord(waiting)} still private (${answer.data.find((d) => d.outcome === 'not_public' || d.outcome === 'unknown_project')?.detail})`
      : '',
    unreachable ? `${samplesWord(unreachable)} not checked: the hub did not answer` : '',
  ].filter(Boolean);
  return {
    success: `Checked ${samplesWord(answer.data.length)} at the Local Contexts Hub: ${parts.join('; ') || 'nothing was private any more'}.`,
  };
}

export function PrivateSamples() {
  const qc = useQueryClient();
  const pathname = usePathname();
  const search = useSearchParams();
  const offset = offsetOf(search, PRIVATE_OFFSET);
  const [outcome, setOutcome] = useState<{ error?: string; success?: string }>({});
  const list = useQuery({
    queryKey: privateSamplesKey(offset),
    queryFn: () => api.GET('/api/sample/private', { params: { query: { limit: PRIVATE_PAGE, offset } } }),
  });
  const check = useMutation({
    mutationFn: (svcIds: string[]) => api.POST('/api/sample/rights/check', { body: { svc_ids: svcIds } }),
    onSuccess: (answer) => {
      setOutcome(summary(answer));
      // cleared samples move to the list awaiting a decision
      void qc.invalidateQueries({ queryKey: ['private-samples'] });
      void qc.invalidateQueries({ queryKey: ['review'] });
    },
    onError: (err) => setOutcome({ error: err.message }),
  });

  if (list.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load the private samples: {list.error.message}
      </p>
    );
  }
  // nothing private: the section is left out, and the outcome of a check that cleared the last ones stays in view
  if (!list.data || list.data.number_found === 0) {
    return outcome.success || outcome.error ? <FormOutcome error={outcome.error} success={outcome.success} /> : null;
  }
  const page = list.data;
  const hub = page.hub;
  return (
    <section aria-labelledby="private-heading" className={styles.section}>
      <h2 id="private-heading">Waiting for traditional-knowledge rights</h2>
      <p>
        {samplesWord(page.number_found)} {page.number_found === 1 ? 'is' : 'are'} private: ERGA samples under traditional-knowledge or
        biocultural rights, which cannot be decided, nor sent to ENA, until the community makes their project public at the{' '}
        <a href="https://localcontextshub.org" target="_blank" rel="noreferrer">
          Local Contexts Hub
        </a>
        . The hub is asked every hour about projects not looked up for a day; a cleared sample joins those awaiting your decision.
      </p>
      {hub.ok === false && (
        <p className="notice error">
          The Local Contexts Hub could not be reached at the last check (<When value={hub.checked_at} />
          ): {hub.detail}
        </p>
      )}
      <DataTable<PrivateSample> caption="Private samples waiting for their rights" table={table} rows={page.data} />
      {page.number_found > PRIVATE_PAGE && (
        <Pager
          offset={offset}
          limit={PRIVATE_PAGE}
          total={page.number_found}
          shown={page.data.length}
          noun="private samples"
          hrefFor={(o) => withParams(pathname, search, { [PRIVATE_OFFSET]: o ? String(o) : undefined })}
        />
      )}
      <div className={styles.confirm}>
        <div className="inline">
          <button
            type="button"
            disabled={check.isPending}
            onClick={() => {
              setOutcome({});
              check.mutate(page.data.map((s) => s.svc_id));
            }}
          >
            {check.isPending ? 'Checking…' : `Check rights now (${samplesWord(page.data.length)})`}
          </button>
        </div>
        <FormOutcome error={outcome.error} success={outcome.success} />
      </div>
    </section>
  );
}
