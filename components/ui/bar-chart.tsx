'use client';

import { useId } from 'react';
import { DataTable } from './data-table';

export interface Bar {
  label: string;
  value: number;
}

interface ChartProps {
  title: string;
  bars: Bar[];
  /** what the values count, e.g. "samples" */
  unit: string;
  caption: string;
  /** the table's heading for the bars' labels, e.g. "Month" */
  labelHeading: string;
}

const sentenceCase = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);

/** The chart's numbers as a table, folded under it: the text alternative, and what a screen reader user navigates. */
function ChartTable({ bars, unit, caption, labelHeading }: Omit<ChartProps, 'title'>) {
  return (
    <details>
      <summary>{caption} as a table</summary>
      <DataTable
        caption={caption}
        rows={bars}
        table={{
          noun: unit,
          rowKey: (b) => b.label,
          columns: [
            { id: 'label', header: labelHeading, key: true, cell: (b) => b.label },
            { id: 'value', header: sentenceCase(unit), numeric: true, cell: (b) => b.value.toLocaleString('en-GB') },
          ],
        }}
      />
    </details>
  );
}

function describeBars(bars: Bar[], unit: string): string {
  const total = bars.reduce((s, b) => s + b.value, 0);
  const peak = bars.reduce((a, b) => (b.value > a.value ? b : a));
  return `${bars.length} bars from ${bars[0]?.label} to ${bars[bars.length - 1]?.label}, ${total} ${unit} in all; most in ${peak.label} (${peak.value}). The table below lists every value.`;
}

/**
 * A bar chart in plain SVG, with its data as a table beside it: the table is the text alternative (the chart is
 * marked as an image with a short description) and also what a screen reader user navigates.
 */
export function BarChart({ title, bars, unit, caption, labelHeading }: ChartProps) {
  const id = useId();
  if (bars.length === 0) return <p className="muted">Nothing to chart yet.</p>;
  const width = 640;
  const height = 220;
  const pad = { top: 16, right: 8, bottom: 40, left: 40 };
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = (width - pad.left - pad.right) / bars.length;
  // a few bars stay bars, not slabs
  const barWidth = Math.max(2, Math.min(step * 0.7, 48));
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - v / max);
  // label at most ~12 bars along the axis so the labels stay readable
  const every = Math.ceil(bars.length / 12);
  return (
    <figure style={{ margin: 0 }}>
      <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{describeBars(bars, unit)}</desc>
        <line className="axis" x1={pad.left} x2={width - pad.right} y1={y(0)} y2={y(0)} />
        <line className="axis" x1={pad.left} x2={pad.left} y1={pad.top} y2={y(0)} />
        <text x={pad.left - 4} y={y(max) + 4} textAnchor="end">
          {max}
        </text>
        <text x={pad.left - 4} y={y(0)} textAnchor="end">
          0
        </text>
        {bars.map((b, i) => {
          const x = pad.left + i * step + (step - barWidth) / 2;
          return (
            <g key={b.label}>
              <rect className="bar" x={x} y={y(b.value)} width={barWidth} height={Math.max(0, y(0) - y(b.value))}>
                <title>{`${b.label}: ${b.value} ${unit}`}</title>
              </rect>
              {i % every === 0 && (
                <text x={x + barWidth / 2} y={height - pad.bottom + 14} textAnchor="middle">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ChartTable bars={bars} unit={unit} caption={caption} labelHeading={labelHeading} />
    </figure>
  );
}

/**
 * Bars lying down, one line each with its label and value written out: for categories with long names (centres,
 * states), as narrow as the screen. The bars are drawn with CSS and hidden from screen readers; the list carries the
 * numbers, so it needs no table beside it.
 */
export function HorizontalBars({ title, bars, unit }: Pick<ChartProps, 'title' | 'bars' | 'unit'>) {
  const id = useId();
  if (bars.length === 0) return <p className="muted">Nothing to chart yet.</p>;
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <figure className="hbars" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="visually-hidden">
        {title}
      </figcaption>
      <ul>
        {bars.map((b) => (
          <li key={b.label}>
            <span className="hbars-label">{b.label}</span>
            <span className="hbars-track" aria-hidden="true">
              <span className="hbars-bar" style={{ width: `${Math.max(0.5, (b.value / max) * 100)}%` }} />
            </span>
            <span className="hbars-value">
              {b.value.toLocaleString('en-GB')}
              <span className="visually-hidden"> {unit}</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
