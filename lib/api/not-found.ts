import { trimEndOf } from '@/lib/values/text';
import type { ApiApp } from './context';

/** Methods with a route for this path: tells 405 from 404. */
export function methodsFor(app: ApiApp, path: string): string[] {
  const found = new Set<string>();
  for (const r of app.routes) {
    if (r.method === 'ALL') continue;
    if (routeRegex(r.path).test(trimEndOf(path, '/'))) found.add(r.method);
  }
  if (found.has('GET')) found.add('HEAD');
  return [...found];
}

const regexCache = new Map<string, RegExp>();
function routeRegex(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) {
    const body = trimEndOf(pattern, '/')
      .split('/')
      .map((seg) => {
        const m = /^:\w+(?:\{(.+)\})?\??$/.exec(seg);
        if (m) return m[1] ? `(?:${m[1]})` : '[^/]+';
        if (seg === '*') return '.*';
        return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('/');
    re = new RegExp(`^${body}$`);
    regexCache.set(pattern, re);
  }
  return re;
}
