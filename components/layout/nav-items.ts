import type { NavItem } from './nav';

/** The portal's areas; `ready: false` marks areas whose pages come with later work. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Home', ready: true },
  { href: '/profiles', label: 'Profiles', ready: true },
  { href: '/manifests', label: 'Manifests', ready: true },
  { href: '/samples', label: 'Samples', ready: true },
  { href: '/audit', label: 'Audit', ready: true },
  { href: '/studies', label: 'Studies', ready: false },
  { href: '/submissions', label: 'Submissions', ready: true },
  { href: '/account/keys', label: 'API keys', ready: true },
  { href: '/admin/stats', label: 'Stats', ready: true, adminOnly: true },
  { href: '/admin/users', label: 'Users', ready: true, adminOnly: true },
];
