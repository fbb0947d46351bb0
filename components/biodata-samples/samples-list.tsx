'use client';

import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useState } from 'react';
import { DataTable, type TableDefinition } from '@/components/ui/data-table';
import { Outcome } from '@/components/ui/mutation-outcome';
import { usePagedList } from '@/components/ui/use-paged-list';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import type { BiodataSample } from '@/lib/biodata-samples/contract';
import { apiPage } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import styles from './biodata-samples.module.css';
import { BiodataState, releaseWords } from './biodata-state';
import { RegisterSamples } from './register-samples';

const PAGE = 25;
const OFFSET_PARAM = 'samples';
const SEARCH_PARAM = 'sample_q';

/** Samples their owner may send to ENA: kept here, or refused by ENA and corrected since. */
const registrable = (s: BiodataSample) => s.status === 'confirmed' || s.status === 'refused';

const table: TableDefinition<BiodataSample> = {
  noun: 'samples',
  rowKey: (s) => s.svc_id,
  columns: [
    { id: 'sample', header: 'Sample', key: true, nowrap: true, cell: (s) => <Link href={`/samples/${s.svc_id}`}>{s.sample}</Link> },
    {
      id: 'organism',
      header: 'Organism',
      cell: (s) => (
        <>
          <em>{s.SCIENTIFIC_NAME}</em> <span className="muted">({s.TAXON_ID})</span>
        </>
      ),
    },
    { id: 'state', header: 'State', cell: (s) => <BiodataState sample={s} /> },
    { id: 'release', header: 'Public', cell: (s) => releaseWords(s.release_date) },
    { id: 'checklist', header: 'Checklist', nowrap: true, cell: (s) => <span className="mono">{s.checklist_id}</span> },
    { id: 'updated', header: 'Updated', cell: (s) => <When value={s.time_updated} /> },
  ],
};

/**
 * A biodata profile's samples a page at a time, newest first, searchable by alias, organism or accession; a
 * contributor ticks those not yet at ENA and registers them. Followed while any is on its way.
 */
export function BiodataSamplesList({ profileId, contributes }: { profileId: string; contributes: boolean }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const searchId = useId();
  const q = search.get(SEARCH_PARAM) ?? '';
  const list = usePagedList({
    key: ['biodata-samples', profileId, q],
    limit: PAGE,
    param: OFFSET_PARAM,
    fetch: (offset, limit) =>
      apiPage(
        '/api/profiles/{profile_id}/samples',
        { offset, limit },
        { params: { path: { profile_id: profileId }, query: q ? { q } : {} } },
      ),
    refetchInterval: (page) => (page?.rows.some((s) => s.status === 'processing') ? 3000 : false),
  });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [sent, setSent] = useState<string | null>(null);
  const rows = list.rows;
  const open = (rows ?? []).filter(registrable);
  // only what is still registrable is sent: a sample may have moved on since it was ticked
  const ticked = [...chosen].filter((id) => !rows || rows.some((r) => r.svc_id === id && registrable(r)));

  return (
    <>
      <search>
        <form
          className={styles.search}
          onSubmit={(e) => {
            e.preventDefault();
            const value = String(new FormData(e.currentTarget).get('q') ?? '').trim();
            router.replace(withParams(pathname, search, { [SEARCH_PARAM]: value || undefined, [OFFSET_PARAM]: undefined }), {
              scroll: false,
            });
          }}
        >
          <label htmlFor={searchId}>
            Find a sample
            <input id={searchId} name="q" type="search" defaultValue={q} placeholder="name, organism or accession" />
          </label>
          <button type="submit">Search</button>
          {q && (
            <Link href={withParams(pathname, search, { [SEARCH_PARAM]: undefined, [OFFSET_PARAM]: undefined })} scroll={false}>
              Show every sample
            </Link>
          )}
        </form>
      </search>
      <Outcome said={sent ? { ok: true, text: sent } : null} />
      <DataTable
        caption={q ? `Samples of this profile matching “${q}”` : 'Samples of this profile, newest first'}
        table={table}
        {...list}
        empty={
          q ? (
            `No sample matches “${q}”.`
          ) : (
            <>
              No samples yet: <a href="#add-samples">pick a checklist, fill in its template and upload it</a>.
            </>
          )
        }
        selection={
          contributes && open.length
            ? {
                selected: chosen,
                onChange: setChosen,
                label: (s) => `Select sample ${s.sample}`,
                allLabel: `Select the ${plural(open.length, 'sample')} on this page not yet at ENA`,
                allKeys: open.map((s) => s.svc_id),
                selectable: registrable,
              }
            : undefined
        }
      />
      {contributes && open.length > 0 && (
        <div className={styles.actions}>
          <RegisterSamples
            svcIds={ticked}
            onDone={(words) => {
              setSent(words);
              setChosen(new Set());
              list.refresh();
            }}
          />
        </div>
      )}
    </>
  );
}
