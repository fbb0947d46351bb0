'use client';

import { useQuery } from '@tanstack/react-query';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useId, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { SheetDrop } from '@/components/ui/sheet-drop';
import { api, formData } from '@/lib/client/api';
import { withParams } from '@/lib/client/search';
import type { ChecklistSummary } from '@/lib/sample-checklists/contract';
import styles from './biodata-samples.module.css';

const CHECKLIST_PARAM = 'checklist';
/** Why a dropped file is refused, in the words of what to do instead. */
function refusal(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Drop one sheet at a time: each file gets its own validation report.';
  const name = rejections[0]?.file.name ?? 'The file';
  if (/\.xls$/i.test(name)) return `${name} is an old Excel (.xls) file: save it as .xlsx (Excel Workbook) and upload that.`;
  return `${name} is not a sample sheet: upload the filled template as .xlsx, or as .csv.`;
}

const matches = (c: ChecklistSummary, words: string[]) => {
  const text = `${c.checklist_id} ${c.name} ${c.description}`.toLowerCase();
  return words.every((w) => text.includes(w));
};

/**
 * The way in for a biodata profile's samples: pick one of ENA's sample checklists (or COPO's), download its template,
 * and upload the filled sheet, whose validation report opens as a page of its own. The checklist picked stays in the
 * page's address, so a reload or a link keeps it.
 */
export function SampleSheetUpload({ profileId }: { profileId: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const id = useId();
  const [filter, setFilter] = useState('');
  const checklists = useQuery({
    queryKey: ['sample-checklists'],
    queryFn: () => api.GET('/api/sample/checklists'),
    staleTime: 60 * 60 * 1000,
  });
  const all = checklists.data?.data ?? [];
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = all.filter((c) => matches(c, words));
  const pickedId = search.get(CHECKLIST_PARAM) ?? 'ERC000011';
  const picked = all.find((c) => c.checklist_id === pickedId);
  const pick = (checklistId: string) => router.replace(withParams(pathname, search, { [CHECKLIST_PARAM]: checklistId }), { scroll: false });

  if (checklists.isPending) return <p aria-busy="true">Loading ENA’s sample checklists…</p>;
  if (checklists.isError) {
    return (
      <p role="alert" className="notice error">
        Could not load the sample checklists: {checklists.error.message}
      </p>
    );
  }
  return (
    <>
      <ol className="steps">
        <li>Pick the checklist your samples are described by (ENA’s default, ERC000011, fits most).</li>
        <li>Download its template and fill in one row per sample: mandatory columns are shaded, each header’s note says what it takes.</li>
        <li>Drop the filled sheet below: it is checked, and its report opens as a page you can come back to. Confirm it there.</li>
        <li>Back here, tick the samples and register them at ENA, public at once or private until a day you choose.</li>
      </ol>
      <div className={styles.picker}>
        <label htmlFor={`${id}-filter`}>
          Find a checklist
          <input
            id={`${id}-filter`}
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="soil, human, plant, water, MIxS…"
            aria-describedby={`${id}-found`}
          />
        </label>
        <span id={`${id}-found`} className="muted" aria-live="polite">
          {words.length ? `${shown.length} of ${all.length} checklists match` : `${all.length} checklists`}
        </span>
        <label htmlFor={`${id}-list`}>Checklist</label>
        <select
          id={`${id}-list`}
          size={Math.min(8, Math.max(2, shown.length))}
          value={picked?.checklist_id ?? ''}
          onChange={(e) => pick(e.target.value)}
        >
          {shown.map((c) => (
            <option key={c.checklist_id} value={c.checklist_id}>
              {c.name} ({c.checklist_id})
            </option>
          ))}
        </select>
      </div>
      {picked ? (
        <>
          <p>
            <strong>{picked.name}</strong> <span className="mono muted">{picked.checklist_id}</span>: {picked.field_count} fields,{' '}
            {picked.mandatory_count} of them mandatory
            {picked.source === 'copo' ? `; registered at ENA under ${picked.ena_checklist_id}` : ''}.
          </p>
          {picked.description && <p className="muted">{picked.description}</p>}
          <p>
            <a
              className="button"
              href={`/api/profiles/${encodeURIComponent(profileId)}/samples/template?checklist_id=${encodeURIComponent(picked.checklist_id)}`}
              download
            >
              Download the {picked.checklist_id} template
            </a>
          </p>
          <SheetDrop
            send={(file) =>
              api.POST('/api/profiles/{profile_id}/samples', {
                params: { path: { profile_id: profileId } },
                body: { checklist_id: picked.checklist_id, file },
                bodySerializer: formData,
              })
            }
            refusal={refusal}
            label={`Upload a sample sheet of checklist ${picked.checklist_id}: drop an .xlsx or .csv file here or press to choose one`}
            testId="sample-sheet-dropzone"
            inputTestId="sample-sheet-input"
            prompt={`Drag the filled ${picked.checklist_id} sheet (.xlsx or .csv) here, or click to choose it`}
            dropPrompt="Drop the sheet to check it"
          />
        </>
      ) : (
        <p className="notice">Pick a checklist above to download its template and upload your sheet.</p>
      )}
    </>
  );
}
