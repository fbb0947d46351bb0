import type { ReactNode } from 'react';

/**
 * A titled part of a page: its heading names the region for screen readers (aria-labelledby), so the two cannot
 * drift apart. `anchor` gives the section itself the id, for links to `#id`.
 */
export function Section({ id, title, anchor, children }: { id: string; title: ReactNode; anchor?: boolean; children: ReactNode }) {
  return (
    <section id={anchor ? id : undefined} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}
