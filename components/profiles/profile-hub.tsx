'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { type ReactNode, Suspense } from 'react';
import { BarcodesSection } from '@/components/barcodes/barcodes-section';
import { ReportsList } from '@/components/manifests/reports-list';
import { UploadPanel } from '@/components/manifests/upload-panel';
import { statusWords, UNSETTLED } from '@/components/samples/sample-state';
import { SequenceDataSection } from '@/components/studies/sequence-data';
import { SEQUENCE_DATA_SECTIONS } from '@/components/studies/sequence-data-sections';
import { StudiesTab } from '@/components/studies/studies-tab';
import { type CaptionedTable, DataTable } from '@/components/ui/data-table';
import { Section } from '@/components/ui/section';
import { When } from '@/components/ui/when';
import { LaterSection, WhenIdle } from '@/components/ui/when-idle';
import { formatNumber, plural } from '@/components/ui/words';
import { api } from '@/lib/client/api';
import type { ProfilePermit } from '@/lib/permits/contract';
import type { ProfileManifest, ProfileSampleSummary, SampleStatus, StatusCount } from '@/lib/samples/contract';
import { PrefilledTemplate } from './prefilled-template';
import styles from './profile-hub.module.css';
import { profileSummaryKey } from './profile-query';

/**
 * A Tree of Life profile's page below its facts: what it holds (samples by status, each count opening the samples
 * browser on them; its confirmed manifests; its validation reports; its permits) and what to do next (the template
 * and the upload); then what was made from its samples: its studies (with the data files they describe), the reads,
 * assemblies and annotations they sent to ENA, and its DNA barcodes. Refreshed while samples are on their way to ENA.
 */

const countWords = (c: StatusCount) => `${formatNumber(c.samples)} ${statusWords(c.status).toLowerCase()}`;
const browserHref = (manifestId: string, status?: SampleStatus) =>
  `/samples?${new URLSearchParams({ manifest_id: manifestId, ...(status && { status }) })}`;
const size = (n: number) => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`);

// what the profile holds and the upload are drawn with the page; what was made from its samples, whose sections show
// no more than their headings until their queries answer, when the browser is idle (WhenIdle)
const DRAWN_AT_ONCE = new Set(['samples', 'manifests', 'reports', 'permits', 'upload']);

/** `contributes`: the caller may add to the profile (a viewer sees what it holds, without the upload). */
export function ProfileHub({ profileId, type, contributes }: { profileId: string; type: string; contributes: boolean }) {
  const q = useQuery({
    queryKey: profileSummaryKey(profileId),
    queryFn: () => api.GET('/api/profiles/{profile_id}/samples/summary', { params: { path: { profile_id: profileId } } }),
    refetchInterval: (query) => (query.state.data?.statuses.some((s) => UNSETTLED.has(s.status)) ? 3000 : false),
  });
  const summary = q.data;
  const erga = type === 'erga';
  // each section is listed once: the page's table of contents is made from the same list. A part with `body` is
  // shown in a section of the hub's; one with `own` is a component that renders its section itself, under this id
  const sections: ({ id: string; title: string } & ({ body: ReactNode } | { own: ReactNode }))[] = [
    {
      id: 'samples',
      title: 'Samples',
      body: q.isError ? (
        <p role="alert" className="notice error">
          Could not load what the profile holds: {q.error.message}
        </p>
      ) : !summary ? (
        <p aria-busy="true" className="muted">
          Loading the profile’s samples…
        </p>
      ) : (
        <SampleCounts summary={summary} />
      ),
    },
    { id: 'manifests', title: 'Manifests', body: <DataTable table={manifestTable} rows={summary?.manifests} query={q} /> },
    { id: 'reports', title: 'Validation reports', body: <ReportsList profileId={profileId} /> },
    ...(erga ? [{ id: 'permits', title: 'Permits', body: <DataTable table={permitTable} rows={summary?.permits} query={q} /> }] : []),
    {
      id: 'upload',
      title: 'Add samples',
      body: !contributes ? (
        <p className="muted">The profile is shared with you as a viewer: its owner can make you a contributor to add samples.</p>
      ) : (
        <>
          <ol className="steps">
            <li>Download the blank {type.toUpperCase()} template.</li>
            <li>Fill in one row per sample; a later upload of the same tubes updates them.</li>
            <li>Drop the file below: it is checked, and its validation report opens as a page you can come back to.</li>
            {erga && <li>Upload the permit PDFs the manifest names, then confirm.</li>}
          </ol>
          <UploadPanel profileId={profileId} />
          <PrefilledTemplate profileId={profileId} />
        </>
      ),
    },
    // the studies hold the profile's data files (their step 2), which is why the hub has no list of its own of them
    { id: 'studies', title: 'Studies', own: <StudiesTab profileId={profileId} contributes={contributes} initialSchema="svc_read" /> },
    ...SEQUENCE_DATA_SECTIONS.map((s) => ({ id: s.id, title: s.title, own: <SequenceDataSection profileId={profileId} kind={s.kind} /> })),
    { id: 'barcodes', title: 'Barcodes', own: <BarcodesSection profileId={profileId} contributes={contributes} /> },
  ];

  return (
    <>
      <nav aria-label="On this page" className={styles.toc}>
        <ul>
          {sections.map(({ id, title }) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>

      {/* each section is a boundary of its own: the page's first drawing hydrates them one after the other, each in
          slices a phone can interrupt, rather than the whole hub in one long task; the sections below what the
          profile holds are drawn when the browser is idle or they near the screen */}
      {sections.map((part) => {
        const drawn =
          'own' in part ? (
            part.own
          ) : (
            <Section id={part.id} anchor title={part.title}>
              {part.body}
            </Section>
          );
        return (
          <Suspense key={part.id}>
            {DRAWN_AT_ONCE.has(part.id) ? (
              drawn
            ) : (
              <WhenIdle placeholder={<LaterSection id={part.id} title={part.title} />}>{drawn}</WhenIdle>
            )}
          </Suspense>
        );
      })}
    </>
  );
}

function SampleCounts({ summary }: { summary: ProfileSampleSummary }) {
  const only = summary.manifests.length === 1 ? summary.manifests[0] : undefined;
  const count = (status: SampleStatus) => summary.statuses.find((s) => s.status === status)?.samples ?? 0;
  const awaiting = count('pending') + count('private');
  const moving = summary.statuses.filter((s) => UNSETTLED.has(s.status)).reduce((n, s) => n + s.samples, 0);
  if (!summary.samples) {
    return (
      <p className="notice">
        No samples yet. <a href="#upload">Download the template, fill it in and upload it</a>; once its report has no errors, confirm it to
        create the samples.
      </p>
    );
  }
  return (
    <>
      <p>
        {plural(summary.samples, 'sample')} in {plural(summary.manifests.length, 'manifest')}.
        {only ? ' Open a count to see those samples.' : ' Open a manifest’s counts below to see its samples.'}
      </p>
      <ul className={styles.counts} aria-label="Samples by status">
        {summary.statuses.map((s) => (
          <li key={s.status}>
            {only ? (
              <Link href={browserHref(only.manifest_id, s.status)}>
                <strong>{formatNumber(s.samples)}</strong> {statusWords(s.status).toLowerCase()}
              </Link>
            ) : (
              <span>
                <strong>{formatNumber(s.samples)}</strong> {statusWords(s.status).toLowerCase()}
              </span>
            )}
          </li>
        ))}
      </ul>
      {awaiting > 0 && <p className="notice">{plural(awaiting, 'sample')} await the review of the project’s sample managers.</p>}
      {moving > 0 && <p className="notice">{plural(moving, 'sample')} on the way to ENA; this page follows them.</p>}
      {summary.registration_failed > 0 && (
        <p className="notice error">
          Registration failed for {plural(summary.registration_failed, 'sample')}: open them to read why (their history keeps ENA’s
          message); there is nothing to upload again, a sample manager retries once the cause is fixed.
        </p>
      )}
    </>
  );
}

const manifestTable: CaptionedTable<ProfileManifest> = {
  noun: 'manifests',
  caption: 'Confirmed manifests of this profile, newest first',
  empty: 'No confirmed manifest yet: upload one under “Add samples” below.',
  rowKey: (m) => m.manifest_id,
  columns: [
    {
      id: 'file',
      header: 'Manifest',
      key: true,
      cell: (m) => <Link href={`/manifests/${m.manifest_id}`}>{m.file_name || m.manifest_id}</Link>,
    },
    {
      id: 'samples',
      header: 'Samples',
      cell: (m) =>
        m.samples ? (
          <ul className={styles.inlineList}>
            <li>
              <Link href={browserHref(m.manifest_id)}>{plural(m.samples, 'sample')}</Link>:
            </li>
            {m.statuses.map((s) => (
              <li key={s.status}>
                <Link href={browserHref(m.manifest_id, s.status)}>{countWords(s)}</Link>
              </li>
            ))}
          </ul>
        ) : (
          <span className="muted">no samples</span>
        ),
    },
    { id: 'version', header: 'Version', nowrap: true, cell: (m) => `${m.tol_project} ${m.version}` },
    { id: 'by', header: 'Uploaded by', cell: (m) => m.uploaded_by ?? <span className="muted">—</span> },
    { id: 'confirmed', header: 'Confirmed', cell: (m) => <When value={m.confirmed} /> },
  ],
};

const permitTable: CaptionedTable<ProfilePermit> = {
  noun: 'permits',
  caption: 'Permits the samples of this profile name',
  empty: 'No permit yet: the permit PDFs an ERGA manifest names are uploaded with it, before it is confirmed.',
  rowKey: (p) => p.file_name,
  columns: [
    {
      id: 'file',
      header: 'Permit',
      key: true,
      cell: (p) => (
        <a href={p.url} download aria-label={`Download the permit ${p.file_name}`}>
          {p.file_name}
        </a>
      ),
    },
    { id: 'kind', header: 'Kind', cell: (p) => p.kinds.map((k) => k.charAt(0) + k.slice(1).toLowerCase()).join(', ') },
    { id: 'samples', header: 'Named by', numeric: true, cell: (p) => plural(p.samples, 'sample') },
    { id: 'uploaded', header: 'Uploaded', cell: (p) => <When value={p.uploaded} /> },
    { id: 'size', header: 'Size', numeric: true, nowrap: true, cell: (p) => size(p.size_in_bytes) },
  ],
};
