import type { NavItem } from './nav';

/** The portal's areas, in the order of the menu. */
export const NAV_ITEMS: NavItem[] = [
  { href: '/', label: 'Home' },
  { href: '/profiles', label: 'Profiles' },
  { href: '/groups', label: 'Groups' },
  { href: '/manifests', label: 'Manifests' },
  { href: '/manifests/review', label: 'Review queue', reviewers: true },
  { href: '/samples', label: 'Samples' },
  { href: '/audit', label: 'Audit' },
  { href: '/studies', label: 'Studies' },
  { href: '/submissions', label: 'Submissions' },
  { href: '/dashboard', label: 'Dashboard' },
  { href: '/account', label: 'Account' },
  { href: '/account/keys', label: 'API keys' },
  { href: '/admin/stats', label: 'Stats', adminOnly: true },
  { href: '/admin/users', label: 'Users', adminOnly: true },
  { href: '/admin/jobs', label: 'Jobs', adminOnly: true },
  { href: '/admin/reference', label: 'Reference data', adminOnly: true },
];
