import { useId } from 'react';
import { type ChartRow, type ChartSeries, chartTotal as total } from './chart-rows';
import { ChartTable } from './chart-table';
import styles from './series-chart.module.css';
import { formatNumber as number } from './words';

export type { ChartRow, ChartSeries } from './chart-rows';

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

/** What the chart shows in a sentence: its accessible name's description, the table holding the rest. */
function summarise(rows: ChartRow[], unit: string): string {
  const sum = rows.reduce((s, r) => s + total(r), 0);
  const peak = rows.reduce((a, b) => (total(b) > total(a) ? b : a));
  return `${rows.length} bars from ${rows[0]?.label} to ${rows[rows.length - 1]?.label}, ${number(sum)} ${unit} in all; most in ${peak.label} (${number(total(peak))}). The table below lists every value.`;
}

/** A round, even number at or above `n`, so that the axis and its middle line read as whole numbers. */
function roundedUp(n: number): number {
  if (n <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(n));
  return ([2, 4, 6, 8, 10].find((m) => m * power >= n) ?? 10) * power;
}

/** How the values of one category read in its tooltip: the total, then each series that has some. */
function tooltip(r: ChartRow, series: ChartSeries[], unit: string): string {
  const parts = series.filter((s) => (r.values[s.key] ?? 0) > 0).map((s) => `${s.label} ${number(r.values[s.key] ?? 0)}`);
  return `${r.label}: ${number(total(r))} ${unit}${series.length > 1 && parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** One category's bar: its series stacked in order, each as long as its share of the category's total. */
function Stack({ row, series, length, lying }: { row: ChartRow; series: ChartSeries[]; length: number; lying: boolean }) {
  return (
    <span className={styles.stack} style={lying ? { width: `${length}%` } : { height: `${length}%` }}>
      {series.map((s, i) =>
        (row.values[s.key] ?? 0) > 0 ? (
          <span key={s.key} style={{ flexGrow: row.values[s.key], background: COLOURS[i % COLOURS.length] }} />
        ) : null,
      )}
    </span>
  );
}

/** Categories named along the foot of standing bars: about six, so that they never run into each other on a phone. */
const NAMED_CATEGORIES = 6;

/**
 * A bar chart, stacked when it has several series, with its numbers as a table beside it. Drawn with HTML and CSS on
 * the server: no script to load or run, and text that keeps its size on a phone, as a drawing scaled to the screen's
 * width would not. The drawing is one image to assistive technology (its title and a sentence); the table is what they
 * read, and each bar's tooltip gives its numbers to a pointer.
 */
export function SeriesChart({ title, caption, unit, labelHeading, rows, series, lying = false, empty }: SeriesChartProps) {
  const id = useId();
  if (rows.length === 0) return <p className="muted">{empty ?? 'Nothing to chart yet.'}</p>;
  const top = roundedUp(Math.max(...rows.map(total)));
  const step = Math.ceil(rows.length / NAMED_CATEGORIES);
  const legend = series.length > 1 || series[0]?.label !== unit;
  return (
    <figure className={styles.figure}>
      <figcaption className="visually-hidden">{caption}</figcaption>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <span id={`${id}-title`} hidden>
          {title}
        </span>
        <span id={`${id}-desc`} hidden>
          {summarise(rows, unit)}
        </span>
        {lying ? (
          <ul className={styles.lying}>
            {rows.map((r) => (
              <li key={r.label} title={tooltip(r, series, unit)}>
                <span className={styles.name}>{r.label}</span>
                <span className={styles.track}>
                  <Stack row={r} series={series} length={(total(r) / top) * 100} lying />
                </span>
                <span className={styles.value}>{number(total(r))}</span>
              </li>
            ))}
          </ul>
        ) : (
          <div className={styles.standing}>
            <span className={styles.axis}>
              <span>{number(top)}</span>
              <span>{number(top / 2)}</span>
              <span>0</span>
            </span>
            <span className={styles.bars} style={{ gridTemplateColumns: `repeat(${rows.length}, minmax(0, 4.5rem))` }}>
              {rows.map((r) => (
                <span key={r.label} className={styles.column} title={tooltip(r, series, unit)}>
                  <Stack row={r} series={series} length={(total(r) / top) * 100} lying={false} />
                </span>
              ))}
            </span>
            {/* every `step`-th category named, across the columns of its own bar and the unnamed ones after it */}
            <span className={styles.names} style={{ gridTemplateColumns: `repeat(${rows.length}, minmax(0, 4.5rem))` }}>
              {rows.map((r, i) =>
                i % step === 0 ? (
                  <span key={r.label} style={{ gridColumn: `span ${Math.min(step, rows.length - i)}` }}>
                    {r.label}
                  </span>
                ) : null,
              )}
            </span>
          </div>
        )}
        {legend && (
          <ul className={styles.legend}>
            {series.map((s, i) => (
              <li key={s.key}>
                <span className={styles.swatch} style={{ background: COLOURS[i % COLOURS.length] }} />
                {s.label}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ChartTable caption={caption} unit={unit} labelHeading={labelHeading} rows={rows} series={series} />
    </figure>
  );
}
