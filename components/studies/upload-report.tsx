import { TableScroll } from '@/components/ui/table-scroll';
import type { ReportEntry } from '@/lib/studies/contract';

/** The report as a table a screen reader can walk: one row per problem, headed by sheet, row, column, value, message. */
export function UploadReport({ caption, entries }: { caption: string; entries: ReportEntry[] }) {
  return (
    <TableScroll label={caption}>
      <table>
        <caption style={{ textAlign: 'left', fontWeight: 600, padding: '0.25rem 0' }}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Sheet</th>
            <th scope="col">Row</th>
            <th scope="col">Column</th>
            <th scope="col">Value</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no identifier and can repeat; the report is shown as computed, never reordered
            <tr key={`${e.path}-${i}`}>
              <td className="mono">{e.sheet}</td>
              <td>{e.row ?? '—'}</td>
              <td>{e.column ?? '—'}</td>
              <td className="mono">{e.value ?? ''}</td>
              <td>{e.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
