'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export interface NavItem {
  href: string;
  label: string;
  /** areas whose pages are not built yet are listed but not linked */
  ready: boolean;
  adminOnly?: boolean;
}

export function Nav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Main">
      <ul>
        {items.map((item) => {
          const current = pathname === item.href || (item.href !== '/' && pathname.startsWith(item.href + '/'));
          return (
            <li key={item.href}>
              {item.ready ? (
                <Link href={item.href} aria-current={current ? 'page' : undefined}>
                  {item.label}
                </Link>
              ) : (
                <span aria-disabled="true" title="Not available yet">
                  {item.label}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
