import type { UpdateType } from '@/lib/query/contract';

/**
 * User and system updates told apart by an icon, a word and a colour together, so that no one depends on colour
 * alone (WCAG 1.4.1).
 */

export function UpdateIcon({ type }: { type: UpdateType }) {
  return type === 'user' ? (
    <svg className="update-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <circle cx="8" cy="5" r="3" fill="currentColor" />
      <path d="M2 15c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5z" fill="currentColor" />
    </svg>
  ) : (
    <svg className="update-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M6.9 1h2.2l.4 2 1.5.7 1.7-1.2 1.6 1.6-1.2 1.7.6 1.5 2 .4v2.2l-2 .4-.6 1.5 1.2 1.7-1.6 1.6-1.7-1.2-1.5.6-.4 2H6.9l-.4-2-1.5-.6-1.7 1.2-1.6-1.6 1.2-1.7L2.3 9.5l-2-.4V6.9l2-.4.6-1.5-1.2-1.7 1.6-1.6 1.7 1.2L6.5 3z"
        fill="currentColor"
      />
      <circle cx="8" cy="8" r="2.2" fill="var(--bg, #fff)" />
    </svg>
  );
}

export function UpdateTypeBadge({ type }: { type: UpdateType }) {
  return (
    <span className={`badge update-${type}`}>
      <UpdateIcon type={type} /> {type === 'user' ? 'User update' : 'System update'}
    </span>
  );
}
