import { useId } from 'react';

export interface Bar {
  label: string;
  value: number;
}

/**
 * A bar chart in plain SVG, with its data as a table beside it: the table is the text alternative (the chart is
 * marked as an image with a short description) and also what a screen reader user navigates.
 */
export function BarChart({
  title,
  bars,
  unit,
  caption,
  labelHeading,
}: {
  title: string;
  bars: Bar[];
  /** what the values count, e.g. "samples" */
  unit: string;
  caption: string;
  /** the table's heading for the bars' labels, e.g. "Month" */
  labelHeading: string;
}) {
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
  const total = bars.reduce((s, b) => s + b.value, 0);
  const peak = bars.reduce((a, b) => (b.value > a.value ? b : a));
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-desc`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>
          {`${bars.length} bars from ${bars[0]?.label} to ${bars[bars.length - 1]?.label}, ${total} ${unit} in all; most in ${peak.label} (${peak.value}). The table below lists every value.`}
        </desc>
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
      <details>
        <summary>{caption} as a table</summary>
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">{labelHeading}</th>
                <th scope="col">{unit[0]?.toUpperCase() + unit.slice(1)}</th>
              </tr>
            </thead>
            <tbody>
              {bars.map((b) => (
                <tr key={b.label}>
                  <th scope="row">{b.label}</th>
                  <td>{b.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
