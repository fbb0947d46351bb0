'use client';

import { type ChartRow, type ChartSeries, chartTotal } from './chart-rows';
import { DataTable } from './data-table';
import { formatNumber } from './words';

/**
 * A chart's numbers as a table (components/ui/series-chart.tsx, components/dashboard/collection-map.tsx): a client
 * component, as the table's columns are functions, which a chart drawn on the server cannot hand over.
 */

const sentenceCase = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);

/** The chart's numbers as a table, folded under it: the text alternative, and what a screen reader user navigates. */
export function ChartTable({
  caption,
  unit,
  labelHeading,
  rows,
  series,
}: {
  caption: string;
  unit: string;
  labelHeading: string;
  rows: ChartRow[];
  series: ChartSeries[];
}) {
  const several = series.length > 1;
  const named = several || series[0]?.label !== unit;
  return (
    <details>
      <summary>{caption} as a table</summary>
      <DataTable
        caption={caption}
        rows={rows}
        table={{
          noun: unit,
          rowKey: (r) => r.label,
          columns: [
            { id: 'label', header: labelHeading, key: true, cell: (r) => r.label },
            ...series.map((s) => ({
              id: `series-${s.key}`,
              header: named ? s.label : sentenceCase(unit),
              numeric: true,
              cell: (r: ChartRow) => formatNumber(r.values[s.key] ?? 0),
            })),
            ...(several ? [{ id: 'total', header: 'Total', numeric: true, cell: (r: ChartRow) => formatNumber(chartTotal(r)) }] : []),
          ],
        }}
      />
    </details>
  );
}
