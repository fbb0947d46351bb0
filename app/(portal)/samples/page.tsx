import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SampleBrowser } from '@/components/samples/sample-browser';
import { sequencingCentres } from '@/lib/reference/read';
import { getDb } from '@/lib/server/runtime';
import { sampleFieldNames } from '@/lib/standards/fields';

export const metadata: Metadata = { title: 'Samples' };

export default async function SamplesPage() {
  // every field a record can show, for the field search (the server knows every manifest version's fields)
  const fieldNames = [...sampleFieldNames().values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  // retired centres too: their samples are still found by them
  const centres = (await sequencingCentres(await getDb())).map((c) => ({ name: c.name, label: c.label }));
  return (
    <>
      <h1>Samples</h1>
      <p className="muted">
        Every sample the broker holds, as the public query API shows it. Filter, sort by a column heading, pick the standard whose field
        names to use, and open a sample by its row. The filter is part of the page’s address, so a filtered page can be bookmarked or
        shared.
      </p>
      <Suspense fallback={<p aria-busy="true">Loading samples…</p>}>
        <SampleBrowser fieldNames={fieldNames} centres={centres} />
      </Suspense>
    </>
  );
}
