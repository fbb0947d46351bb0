import { Suspense } from 'react';
import { ReportsList } from '@/components/manifests/reports-list';
import styles from '@/components/profiles/profile-hub.module.css';
import { SEQUENCE_DATA_SECTIONS } from '@/components/studies/sequence-data-sections';
import { Section } from '@/components/ui/section';
import { SampleSheetUpload } from './sample-sheet-upload';
import { BiodataSamplesList } from './samples-list';

const SECTIONS = [
  { id: 'samples', title: 'Samples' },
  { id: 'add-samples', title: 'Add samples' },
  { id: 'reports', title: 'Validation reports' },
  { id: 'studies', title: 'Studies' },
  ...SEQUENCE_DATA_SECTIONS.map(({ id, title }) => ({ id, title })),
] as const;

/**
 * A biodata profile's samples (lib/biodata-samples): what it holds, with their state at ENA and the register action;
 * the checklist, template and upload that add more; the reports of its uploads. Its studies follow on the page, then
 * the reads, assemblies and annotations they sent to ENA.
 */
export function BiodataSamplesTab({ profileId, contributes }: { profileId: string; contributes: boolean }) {
  return (
    <>
      <nav aria-label="On this page" className={styles.toc}>
        <ul>
          {SECTIONS.map(({ id, title }) => (
            <li key={id}>
              <a href={`#${id}`}>{title}</a>
            </li>
          ))}
        </ul>
      </nav>
      <Section id="samples" anchor title="Samples">
        <Suspense fallback={<p aria-busy="true">Loading the profile’s samples…</p>}>
          <BiodataSamplesList profileId={profileId} contributes={contributes} />
        </Suspense>
      </Section>
      <Section id="add-samples" anchor title="Add samples">
        {contributes ? (
          <Suspense fallback={<p aria-busy="true">Loading ENA’s sample checklists…</p>}>
            <SampleSheetUpload profileId={profileId} />
          </Suspense>
        ) : (
          <p className="muted">The profile is shared with you as a viewer: its owner can make you a contributor to add samples.</p>
        )}
      </Section>
      <Section id="reports" anchor title="Validation reports">
        <Suspense>
          <ReportsList profileId={profileId} />
        </Suspense>
      </Section>
    </>
  );
}
