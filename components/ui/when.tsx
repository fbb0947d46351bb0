'use client';

/**
 * The portal's one way to show a moment: the reader's local time with its zone ("24 Nov 2026, 14:03 CET"), in a
 * <time> element that carries the exact instant. The server renders the same format in its own zone; the browser's
 * first render replaces it with the reader's, which is why the text may differ between the two.
 */

const FORMAT: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZoneName: 'short',
};

const formatter = new Intl.DateTimeFormat('en-GB', FORMAT);
const dayFormatter = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * A moment, or `none` (a dash unless given) when there is none; `what` happened then ("Revoked 24 Nov 2026, …"),
 * shown in a span of `className` (a badge, muted text).
 */
export function When({
  value,
  day = false,
  none = '—',
  what,
  className,
}: {
  value: string | Date | null | undefined;
  day?: boolean;
  none?: string;
  what?: string;
  className?: string;
}) {
  if (!value) return <span className="muted">{none}</span>;
  const d = typeof value === 'string' ? new Date(value) : value;
  const shown = Number.isNaN(d.getTime()) ? (
    <span>{String(value)}</span>
  ) : (
    <time dateTime={d.toISOString()} title={d.toISOString()} suppressHydrationWarning>
      {day ? dayFormatter.format(d) : formatter.format(d)}
    </time>
  );
  if (!what && !className) return shown;
  return (
    <span className={className}>
      {what ? `${what} ` : null}
      {shown}
    </span>
  );
}
