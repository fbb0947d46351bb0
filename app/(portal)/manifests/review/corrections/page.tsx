import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { SampleCorrections } from '@/components/samples/sample-corrections';
import { isCurator } from '@/lib/samples/corrections';
import { currentUser } from '@/lib/server/auth-options';
import { getDb } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Correct registered samples' };

export default async function CorrectionsPage() {
  const user = await currentUser();
  // the page of those who approve samples: anyone else meets it as a page that does not exist, as the API answers them
  if (!user || !(await isCurator(await getDb(), user))) notFound();
  return (
    <>
      <h1>Correct registered samples</h1>
      <p>
        Change requests for samples already registered at ENA, by their BioSample accession: each field is checked by the rules of the
        sample’s manifest, as a re-upload of the manifest would be. You see what would change and what would be sent to ENA before anything
        changes; confirming records each change in the sample’s history as yours and sends a MODIFY of the sample and of its specimen’s
        record (a new ToLID is requested first when the taxon changes). You can correct the samples you approve.{' '}
        <Link href="/manifests/review">Back to the review queue</Link>
      </p>
      <SampleCorrections />
    </>
  );
}
