'use client';

import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { DataTable } from './data-table';

/** One category of a chart (a month, a project, a taxon) and its value in each series. */
export interface ChartRow {
  label: string;
  values: Record<string, number>;
}

export interface ChartSeries {
  key: string;
  label: string;
}

export interface SeriesChartProps {
  title: string;
  /** the table's caption, and the chart's figure caption */
  caption: string;
  /** what the values count, e.g. "samples" */
  unit: string;
  /** the table's heading for the categories, e.g. "Month" */
  labelHeading: string;
  rows: ChartRow[];
  /** stacked in this order; one series draws plain bars */
  series: ChartSeries[];
  /** bars lying down, one line per category: for long names (taxa) */
  lying?: boolean;
  /** what to say when there is nothing to chart, in the chart's own words */
  empty?: string;
}

// Okabe and Ito's colours, told apart with every kind of colour vision
const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#000000', '#F0E442'];

const sentenceCase = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);
const total = (r: ChartRow) => Object.values(r.values).reduce((a, b) => a + b, 0);
const number = (n: number) => n.toLocaleString('en-GB');

/** The chart's numbers as a table, folded under it: the text alternative, and what a screen reader user navigates. */
export function ChartTable({ caption, unit, labelHeading, rows, series }: Omit<SeriesChartProps, 'title' | 'lying'>) {
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
              cell: (r: ChartRow) => number(r.values[s.key] ?? 0),
            })),
            ...(several ? [{ id: 'total', header: 'Total', numeric: true, cell: (r: ChartRow) => number(total(r)) }] : []),
          ],
        }}
      />
    </details>
  );
}

/** What the chart shows in a sentence: its accessible name's description, the table holding the rest. */
function summarise(rows: ChartRow[], unit: string): string {
  const sum = rows.reduce((s, r) => s + total(r), 0);
  const peak = rows.reduce((a, b) => (total(b) > total(a) ? b : a));
  return `${rows.length} bars from ${rows[0]?.label} to ${rows[rows.length - 1]?.label}, ${number(sum)} ${unit} in all; most in ${peak.label} (${number(total(peak))}). The table below lists every value.`;
}

/**
 * A bar chart drawn by Recharts, stacked when it has several series, with its numbers as a table beside it. The
 * drawing is one image to assistive technology (its title and a sentence); the table is what they read.
 */
export function SeriesChart({ title, caption, unit, labelHeading, rows, series, lying = false, empty }: SeriesChartProps) {
  const id = useId();
  if (rows.length === 0) return <p className="muted">{empty ?? 'Nothing to chart yet.'}</p>;
  const data = rows.map((r) => ({ label: r.label, ...Object.fromEntries(series.map((s) => [s.key, r.values[s.key] ?? 0])) }));
  const size = lying ? { width: '100%', height: rows.length * 30 + 70 } : { width: '100%', maxHeight: 320, aspectRatio: 2 };
  return (
    <figure style={{ margin: 0 }}>
      <figcaption className="visually-hidden">{caption}</figcaption>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} className="series-chart">
        <span id={`${id}-title`} hidden>
          {title}
        </span>
        <span id={`${id}-desc`} hidden>
          {summarise(rows, unit)}
        </span>
        <BarChart
          data={data}
          layout={lying ? 'vertical' : 'horizontal'}
          responsive
          style={size}
          accessibilityLayer={false}
          margin={{ top: 8, right: 16, bottom: 8, left: 8 }}
        >
          <CartesianGrid strokeDasharray="3 3" horizontal={!lying} vertical={lying} />
          {lying ? (
            <>
              <XAxis type="number" allowDecimals={false} />
              <YAxis type="category" dataKey="label" width={130} tick={{ fontSize: 12 }} interval={0} />
            </>
          ) : (
            <>
              <XAxis dataKey="label" tick={{ fontSize: 12 }} />
              <YAxis allowDecimals={false} width={48} tick={{ fontSize: 12 }} />
            </>
          )}
          <Tooltip formatter={(value) => `${number(Number(value))} ${unit}`} />
          {(series.length > 1 || series[0]?.label !== unit) && <Legend wrapperStyle={{ fontSize: 13 }} />}
          {series.map((s, i) => (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId="all"
              fill={COLOURS[i % COLOURS.length]}
              maxBarSize={lying ? 24 : 72}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </div>
      <ChartTable caption={caption} unit={unit} labelHeading={labelHeading} rows={rows} series={series} />
    </figure>
  );
}
