'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Accession } from '@/components/samples/sample-state';
import { ArchiveStateWords, fileArchiveWords, SentStateWords } from '@/components/submissions/sent-state';
import { type Column, DataTable, type TableDefinition } from '@/components/ui/data-table';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { Section } from '@/components/ui/section';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import type { SequenceDataItem, SequenceDataKind } from '@/lib/submissions/study/contract';
import styles from './sequence-data.module.css';
import { SEQUENCE_DATA_SECTIONS, type SequenceDataSectionInfo } from './sequence-data-sections';

/**
 * What was made from a profile's samples, as its studies describe it and ENA answered: the reads, the assemblies and
 * the sequence annotations, a section each with its table. The three share one request (the list answers every kind
 * at once) and follow it while a row is on its way to ENA; "Ask ENA now" asks ENA's reports service how the files
 * it was sent are processed, for all three.
 */

// under the studies' key: submitting, uploading or deleting a study refreshes what it made too
const queryKey = (profileId: string) => ['studies', profileId, 'sequence-data'] as const;

const ACCESSION_NAMES = [
  ['experiment', 'Experiment'],
  ['run', 'Run'],
  ['analysis', 'Analysis'],
] as const;

function Accessions({ item }: { item: SequenceDataItem }) {
  const given = ACCESSION_NAMES.filter(([key]) => item.accessions[key]);
  if (!given.length) return <span className="muted">—</span>;
  return (
    <ul className={`${styles.lines} ${styles.accessions}`}>
      {given.map(([key, label]) => (
        <li key={key}>
          {label} <Accession value={item.accessions[key] ?? ''} />
        </li>
      ))}
    </ul>
  );
}

/** ENA's processing of the row's files: its state taken together, when it was asked, and each file not yet archived. */
function Processing({ item }: { item: SequenceDataItem }) {
  if (item.archive === 'unknown' && !item.files.length) {
    // only what ENA holds has files it processes
    return item.state === 'accepted' ? <span className="muted">Not asked yet</span> : <span className="muted">—</span>;
  }
  const open = item.files.filter((f) => f.state !== 'archived' || f.error);
  return (
    <>
      <ArchiveStateWords state={item.archive} />
      {item.checked_at ? (
        <span className="muted">
          {' '}
          <When value={item.checked_at} what="asked" />
        </span>
      ) : null}
      {open.length > 0 && (
        <ul className={`${styles.lines} ${styles.files}`} aria-label={`Files of ${item.row_id} at ENA`}>
          {open.map((f) => (
            <li key={f.name}>
              <span className="mono">{f.name}</span>: {fileArchiveWords(f.state)}
              {f.error ? <span className="field-error"> — {f.error}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** What the row holds: a read row's files one a line (the list names them joined by commas), else its name. */
function RowName({ item }: { item: SequenceDataItem }) {
  if (!item.name) return <span className="muted">—</span>;
  if (item.kind !== 'read') return <span>{item.name}</span>;
  return (
    <ul className={styles.lines}>
      {item.name.split(', ').map((file) => (
        <li key={file} className="mono">
          {file}
        </li>
      ))}
    </ul>
  );
}

function tableOf(info: SequenceDataSectionInfo): TableDefinition<SequenceDataItem> {
  const columns: Column<SequenceDataItem>[] = [
    { id: 'row', header: 'Row', key: true, nowrap: true, cell: (d) => <span className="mono">{d.row_id || '—'}</span> },
    { id: 'study', header: 'Study', nowrap: true, cell: (d) => <span className="mono">{d.study_id}</span> },
    { id: 'name', header: info.nameHeader, cell: (d) => <RowName item={d} /> },
    { id: 'sample', header: 'Sample', cell: (d) => (d.sample ? <Accession value={d.sample} /> : <span className="muted">—</span>) },
    { id: 'state', header: 'State', cell: (d) => <SentStateWords state={d.state} detail={d.detail} /> },
    { id: 'accessions', header: 'Accessions', cell: (d) => <Accessions item={d} /> },
    { id: 'archive', header: 'ENA processing', cell: (d) => <Processing item={d} /> },
  ];
  return { noun: info.many, rowKey: (d) => `${d.study_id}\u0000${d.row_id}`, columns };
}

const TABLES = new Map(SEQUENCE_DATA_SECTIONS.map((info) => [info.kind, tableOf(info)]));

/** The profile's reads, assemblies and annotations, for the sections that show them. */
function useSequenceData(profileId: string) {
  return useQuery({
    queryKey: queryKey(profileId),
    queryFn: () => api.GET('/api/profiles/{profile_id}/sequence-data', { params: { path: { profile_id: profileId } } }),
    // a row on its way to ENA ends by itself: follow it until ENA has answered
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.state === 'processing') ? 3000 : false),
  });
}

/** One kind's section: its table, how to get there when it is empty, and "Ask ENA now" once ENA holds some of it. */
export function SequenceDataSection({ profileId, kind }: { profileId: string; kind: SequenceDataKind }) {
  const qc = useQueryClient();
  const info = SEQUENCE_DATA_SECTIONS.find((s) => s.kind === kind) ?? SEQUENCE_DATA_SECTIONS[0];
  const list = useSequenceData(profileId);
  const rows = list.data?.data.filter((d) => d.kind === kind);
  const ask = useMutation({
    mutationFn: () => api.POST('/api/profiles/{profile_id}/sequence-data/action/refresh', { params: { path: { profile_id: profileId } } }),
    // the answer is the list, refreshed: every section shows it at once
    onSuccess: (fresh) => qc.setQueryData(queryKey(profileId), fresh),
  });
  if (!info) return null;
  const sent = rows?.some((d) => d.state === 'accepted');
  const table = TABLES.get(info.kind);
  return (
    <Section id={info.id} anchor title={info.title}>
      {sent && (
        <div className="inline" style={{ alignItems: 'center', marginBottom: '0.5rem' }}>
          <button type="button" disabled={ask.isPending} onClick={() => ask.mutate()}>
            {ask.isPending ? 'Asking ENA…' : 'Ask ENA now'}
            <span className="visually-hidden"> how it processes the files of the {info.title.toLowerCase()}</span>
          </button>
          <span className="muted">ENA checks the files it is sent; this asks it where they stand.</span>
        </div>
      )}
      <MutationOutcome
        mutation={ask}
        done={(fresh) => `ENA answered for ${plural(fresh.data.filter((d) => d.kind === kind).length, info.one, info.many)}.`}
        failed={(message) => `ENA was not asked: ${message}`}
      />
      {table && (
        <DataTable
          caption={`${info.title} of this profile’s studies`}
          table={table}
          rows={rows}
          query={list}
          empty={
            <>
              No {info.title.toLowerCase()} yet: upload a study of the schema “Reads, assemblies and annotations” under{' '}
              <a href="#studies">Studies</a>, then submit it to ENA to follow its {info.many} here.
            </>
          }
        />
      )}
    </Section>
  );
}

/** The three sections, in their order (a biodata profile's page, after its studies). */
export function SequenceData({ profileId }: { profileId: string }) {
  return (
    <>
      {SEQUENCE_DATA_SECTIONS.map((s) => (
        <SequenceDataSection key={s.kind} profileId={profileId} kind={s.kind} />
      ))}
    </>
  );
}
