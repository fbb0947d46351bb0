import type { Metadata } from 'next';
import { AuditBrowser } from '@/components/audit/audit-browser';
import { AUDIT_PARAMS, AUDIT_QUERY_KEY } from '@/components/audit/audit-query';
import { Prefetched } from '@/components/ui/prefetched';
import { UrlChecked } from '@/components/ui/url-check';
import { urlFilterKey } from '@/components/ui/url-filter-key';
import { auditFieldChoices, browseAudit } from '@/lib/browse/audit';
import { AuditBrowseQuerySchema } from '@/lib/browse/contract';
import { checkUrl } from '@/lib/browse/url-check';
import { paramsObject, searchOf } from '@/lib/client/search';
import { jsonAnswer } from '@/lib/query/json-answer';
import { pageData, unlessRefused } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Audit' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = searchOf(await searchParams);
  const parsed = checkUrl(AuditBrowseQuerySchema, paramsObject(search, AUDIT_PARAMS));
  // the first page of changes comes with the page, so that the list is drawn with it
  const { first } = await pageData(async (db) => ({
    first: parsed.success ? await unlessRefused(async () => jsonAnswer(await browseAudit(db, parsed.data))) : undefined,
  }));
  return (
    <>
      <h1>Audit</h1>
      <p className="muted">
        Every change to a sample’s exported fields, newest first: by users re-uploading a manifest, or by the system (accessions, status).
        As in the public audit API, who made a change is not shown here; a sample’s own page shows it to the sample’s owner and managers.
      </p>
      <Prefetched answers={first ? [[urlFilterKey(AUDIT_QUERY_KEY, search.toString()), first]] : []}>
        <UrlChecked check={parsed}>
          <AuditBrowser fieldNames={auditFieldChoices()} />
        </UrlChecked>
      </Prefetched>
    </>
  );
}
