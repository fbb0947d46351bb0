import { z } from 'zod';
import { trimEndOf } from '@/lib/values/text';

/** Where Webin's REST service is, and where a queued submission is polled: only ever on the configured host. */

/** The Webin REST root from whatever the setting names (the root, the v1 drop-box or the v2 service). */
export function webinRoot(baseUrl: string): string {
  return trimEndOf(baseUrl.trim(), '/').replace(/\/(drop-box(\/submit)?|webin-v2(\/submit(\/queue)?)?)$/, '');
}

export const lastSegment = (url: string): string => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
  } catch {
    return url;
  }
};

export const QueueAnswer = z.object({
  submissionId: z.string().min(1),
  submissionAccountId: z.string().optional(),
  links: z.array(z.object({ rel: z.string(), href: z.string() })).optional(),
  _links: z.record(z.string(), z.union([z.object({ href: z.string() }), z.array(z.object({ href: z.string() }))])).optional(),
});
export type QueueAnswer = z.infer<typeof QueueAnswer>;

/** The poll link of a queue answer, in the documented `links[rel]` shape or the HAL `_links` shape. */
export function pollLinkOf(answer: QueueAnswer): string | undefined {
  const rel = (name: string) => answer.links?.find((l) => l.rel === name)?.href;
  const hal = (name: string) => {
    const v = answer._links?.[name];
    return Array.isArray(v) ? v[0]?.href : v?.href;
  };
  return rel('poll-xml') ?? hal('poll-xml') ?? hal('poll') ?? rel('poll') ?? rel('poll-json') ?? hal('poll-json');
}

/**
 * A poll link, followed only on the configured host (ENA's links say http:// for an https service): the Basic
 * credentials must never go anywhere else. The query (`mediaType=…`, spelt with spaces in ENA's own docs) is
 * dropped; the poll answers XML by default. Undefined for a link elsewhere, or none: the caller polls the documented
 * path.
 */
export function pollUrlOnHost(rootUrl: URL, href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href, rootUrl);
    if (u.hostname !== rootUrl.hostname) return undefined;
    u.protocol = rootUrl.protocol;
    u.port = rootUrl.port;
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.toString();
  } catch {
    return undefined;
  }
}
