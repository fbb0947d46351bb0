import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SAMPLE_BROWSE_KEY, SAMPLE_BROWSE_PARAMS } from '@/components/samples/sample-browse-query';
import { SampleBrowser } from '@/components/samples/sample-browser';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { UrlChecked } from '@/components/ui/url-check';
import { urlFilterKey } from '@/components/ui/url-filter-key';
import { SampleBrowseQuerySchema } from '@/lib/browse/contract';
import { sampleBrowsePage } from '@/lib/browse/samples';
import { checkUrl } from '@/lib/browse/url-check';
import { paramsObject, searchOf } from '@/lib/client/search';
import { sequencingCentres } from '@/lib/reference/read';
import { pageData, unlessRefused } from '@/lib/server/page-data';
import { sampleFieldNames } from '@/lib/standards/fields';

export const metadata: Metadata = { title: 'Samples' };

export default async function SamplesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = searchOf(await searchParams);
  const parsed = checkUrl(SampleBrowseQuerySchema, paramsObject(search, SAMPLE_BROWSE_PARAMS));
  const { centres, first } = await pageData(async (db, user) => {
    // a researcher looks for their own samples first; who manages or approves samples, or administers, for everyone's
    const researcher = !user.isAdmin && user.managerOf.length === 0 && user.approverOf.length === 0;
    if (researcher && search.size === 0) redirect('/samples?profiles=mine');
    return {
      // retired centres too: their samples are still found by them
      centres: (await sequencingCentres(db)).map((c) => ({ name: c.name, label: c.label })),
      // the first page of samples comes with the page, so that the list is drawn with it
      first: parsed.success ? await unlessRefused(() => sampleBrowsePage(db, user, parsed.data)) : undefined,
    };
  });
  // every field a record can show, for the field search (the server knows every manifest version's fields)
  const fieldNames = [...sampleFieldNames().values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return (
    <>
      <h1>Samples</h1>
      <p className="muted">
        The samples the broker holds, as the public query API shows them: those of your own and shared profiles, or every sample. Filter,
        sort by a column heading, pick the standard whose field names to use, and open a sample by its tube. The filter is part of the
        page’s address, so a filtered page can be bookmarked or shared.
      </p>
      <Prefetched answers={first ? [[urlFilterKey(SAMPLE_BROWSE_KEY, search.toString()), asSent(first)]] : []}>
        <UrlChecked check={parsed}>
          <SampleBrowser fieldNames={fieldNames} centres={centres} />
        </UrlChecked>
      </Prefetched>
    </>
  );
}
