'use client';

import { usePathname } from 'next/navigation';
import { useEffect, useRef, useState } from 'react';
import { formatNumber } from '@/components/ui/words';
import { Nav, type NavItem, useReviewCount } from './nav';
import { SignOutButton } from './sign-out-button';

/**
 * The portal's header: the name, the navigation and who is signed in. On a narrow screen the navigation and the
 * account fold behind a Menu button (a disclosure: aria-expanded, Escape closes it and returns to the button); it
 * closes whenever a page is opened.
 */
export function Sidebar({
  items,
  username,
  isAdmin,
  awaiting,
}: {
  items: NavItem[];
  username: string;
  isAdmin: boolean;
  /** samples waiting for this manager's decision; null for those who review nothing */
  awaiting: number | null;
}) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const [shownPath, setShownPath] = useState(pathname);
  const toggle = useRef<HTMLButtonElement>(null);
  const count = useReviewCount(awaiting, pathname);
  if (shownPath !== pathname) {
    // a page was opened (a link, back, forward): the menu has done its job
    setShownPath(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    function onKeyDown(e: KeyboardEvent) {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
  return (
    <header className="sidebar">
      <div className="sidebar-top">
        <a className="brand" href="/">
          Research Metadata Broker
        </a>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="portal-menu"
          onClick={() => setOpen((o) => !o)}
        >
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            {open ? (
              <path d="M3 3l10 10M13 3L3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            ) : (
              <path d="M2 4h12M2 8h12M2 12h12" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            )}
          </svg>
          Menu
          {!open && count ? (
            <span className="nav-count waiting" aria-hidden="true">
              {formatNumber(count)}
            </span>
          ) : null}
        </button>
      </div>
      <div id="portal-menu" className="menu" data-open={open}>
        <Nav items={items} count={count} onNavigate={() => setOpen(false)} />
        <div className="who">
          <p>
            Signed in as <strong>{username}</strong>
            {isAdmin && <span className="badge"> admin</span>}
          </p>
          <SignOutButton />
        </div>
      </div>
    </header>
  );
}
