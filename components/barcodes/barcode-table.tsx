import { Accession } from '@/components/samples/sample-state';
import { SentStateWords } from '@/components/submissions/sent-state';
import type { TableDefinition } from '@/components/ui/data-table';
import { When } from '@/components/ui/when';
import type { Barcode, BarcodeChecklist } from '@/lib/barcodes/contract';

/** A profile's barcodes as a table: each with its checklist and study, and where it stands at ENA. */

export const CHECKLIST_WORDS: Record<BarcodeChecklist, string> = { ERT000020: 'COI barcodes', ERT000002: 'rRNA genes' };

/** on its way to ENA: the list follows it until Webin-CLI has answered */
export const running = (b: Barcode) => b.status === 'processing';

export const barcodeTable: TableDefinition<Barcode> = {
  noun: 'barcodes',
  rowKey: (b) => b.id,
  columns: [
    { id: 'entry', header: 'Entry', key: true, nowrap: true, cell: (b) => <span className="mono">{b.entry_number}</span> },
    { id: 'specimen', header: 'Specimen', cell: (b) => <span className="mono">{b.specimen_id}</span> },
    {
      id: 'checklist',
      header: 'Checklist',
      cell: (b) => (
        <>
          {CHECKLIST_WORDS[b.checklist_id]} <span className="mono muted">{b.checklist_id}</span>
        </>
      ),
    },
    {
      id: 'study',
      header: 'Study',
      cell: (b) => (b.study_accession ? <Accession value={b.study_accession} /> : <span className="muted">—</span>),
    },
    { id: 'state', header: 'State', cell: (b) => <SentStateWords state={b.status} detail={b.error} /> },
    {
      id: 'accession',
      header: 'Accession',
      cell: (b) => (b.accession ? <Accession value={b.accession} /> : <span className="muted">—</span>),
    },
    { id: 'updated', header: 'Updated', cell: (b) => <When value={b.time_updated} /> },
  ],
};
