import type { ReactNode } from 'react';

/**
 * The box a table scrolls in when it is wider than the screen. It takes focus, named after its table, so that the
 * keyboard can scroll it too (axe: scrollable-region-focusable).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this names a scroll box
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable from the keyboard
    <div className="table-wrap" role="group" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
