import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SampleBrowser } from '@/components/samples/sample-browser';
import { sequencingCentres } from '@/lib/reference/read';
import { signedInOrRedirect } from '@/lib/server/auth-options';
import { getDb } from '@/lib/server/runtime';
import { sampleFieldNames } from '@/lib/standards/fields';

export const metadata: Metadata = { title: 'Samples' };

export default async function SamplesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await signedInOrRedirect();
  // a researcher looks for their own samples first; who manages or approves samples, or administers, for everyone's
  const researcher = !user.isAdmin && user.managerOf.length === 0 && user.approverOf.length === 0;
  if (researcher && Object.keys(await searchParams).length === 0) redirect('/samples?profiles=mine');
  // every field a record can show, for the field search (the server knows every manifest version's fields)
  const fieldNames = [...sampleFieldNames().values()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  // retired centres too: their samples are still found by them
  const centres = (await sequencingCentres(await getDb())).map((c) => ({ name: c.name, label: c.label }));
  return (
    <>
      <h1>Samples</h1>
      <p className="muted">
        The samples the broker holds, as the public query API shows them: those of your own and shared profiles, or every sample. Filter,
        sort by a column heading, pick the standard whose field names to use, and open a sample by its tube. The filter is part of the
        page’s address, so a filtered page can be bookmarked or shared.
      </p>
      <SampleBrowser fieldNames={fieldNames} centres={centres} />
    </>
  );
}
