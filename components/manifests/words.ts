import { formatNumber, plural } from '@/components/ui/words';
import type { ReportCounts, ValidationReportSummary } from '@/lib/reports/contract';

/** "3 rows, 2 errors, 1 warning" */
export const countsText = (s: ReportCounts): string =>
  `${plural(s.rows, 'row')}, ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}`;

/** What a report checked: "DTOL manifest 2.5", or "ERC000011 sample sheet" for a checklist's samples. */
export const sheetWords = (r: Pick<ValidationReportSummary, 'manifest_type' | 'version'>): string =>
  r.manifest_type === 'BIODATA' ? `${r.version} sample sheet` : `${r.manifest_type} manifest ${r.version}`;

type ReportState = Pick<ValidationReportSummary, 'status' | 'summary' | 'confirmed_manifest_id' | 'failure'> &
  Partial<Pick<ValidationReportSummary, 'permits'>>;

export type Tone = 'ok' | 'danger' | 'warn' | 'neutral';

/** Where a report stands, as a short phrase with its tone, for lists and the report's summary. */
export function reportState(r: ReportState): { words: string; tone: Tone } {
  switch (r.status) {
    case 'pending':
      return { words: 'Waiting to be checked', tone: 'neutral' };
    case 'running': {
      const { rows_checked: checked, rows_total: total } = r.summary;
      return {
        words: total !== undefined ? `Checking: ${formatNumber(checked ?? 0)} of ${plural(total, 'row')}` : 'Checking',
        tone: 'neutral',
      };
    }
    case 'failed':
      return { words: 'Could not be checked', tone: 'danger' };
    case 'complete':
      if (r.confirmed_manifest_id) return { words: 'Confirmed', tone: 'ok' };
      if (r.summary.errors > 0) return { words: `${plural(r.summary.errors, 'error')} to fix`, tone: 'danger' };
      {
        // the badge agrees with the Confirm button, which waits for every permit the manifest names
        const missing = (r.permits ?? []).filter((p) => !p.received).length;
        if (missing) return { words: `${plural(missing, 'permit')} to upload`, tone: 'warn' };
      }
      return { words: 'Ready to confirm', tone: 'warn' };
  }
}
