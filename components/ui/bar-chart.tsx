'use client';

import { useId } from 'react';
import { SeriesChart } from './series-chart';
import { formatNumber } from './words';

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

/**
 * Bars of one series, e.g. samples per month, with their numbers as a table beside it
 * (components/ui/series-chart.tsx).
 */
export function BarChart({ title, bars, unit, caption, labelHeading }: ChartProps) {
  return (
    <SeriesChart
      title={title}
      caption={caption}
      unit={unit}
      labelHeading={labelHeading}
      rows={bars.map((b) => ({ label: b.label, values: { value: b.value } }))}
      series={[{ key: 'value', label: unit }]}
    />
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
              {formatNumber(b.value)}
              <span className="visually-hidden"> {unit}</span>
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
