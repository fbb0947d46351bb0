import type { ReactNode } from 'react';
import { TableScroll } from '@/components/ui/table-scroll';

/** A sample's fields as name → value rows, the table of every sample page; `cell` may show a value in other words. */
export function FieldRows({ rows, cell = (_k, v) => v }: { rows: [string, unknown][]; cell?: (key: string, value: string) => ReactNode }) {
  return (
    <TableScroll label="All fields of the sample">
      <table className="field-rows">
        <caption className="visually-hidden">All fields of the sample</caption>
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row" className="mono">
                {k}
              </th>
              <td>{cell(k, String(v ?? ''))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
