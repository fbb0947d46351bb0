import type { Metadata } from 'next';
import { Suspense } from 'react';
import { AssociatedTypesAdmin } from '@/components/admin/associated-types-admin';
import { SequencingCentresAdmin } from '@/components/admin/sequencing-centres-admin';
import { Section } from '@/components/ui/section';
import { NotFound } from '@/lib/errors';
import { associatedTypeJson, sequencingCentreJson } from '@/lib/reference/admin';
import { REFERENCE_CACHE_SECONDS } from '@/lib/reference/cache';
import { associatedTypes, sequencingCentres } from '@/lib/reference/read';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Reference data' };

export default async function ReferenceDataPage() {
  // both tables come with the page, as the API answers them, so that nothing moves when they would have loaded
  const { types, centres, at } = await pageData(async (db, u) => {
    // as for the other admin areas, others get a plain 404 so the page's existence is not advertised
    if (!u.isAdmin) throw NotFound();
    return {
      types: (await associatedTypes(db)).map(associatedTypeJson),
      centres: (await sequencingCentres(db)).map(sequencingCentreJson),
      at: Date.now(),
    };
  });
  return (
    <>
      <h1>Reference data</h1>
      <p>
        The associated project types and sequencing centres that ERGA profiles choose from, and who approves their samples. Nothing here is
        deleted: untick “Offered” to retire one, and the profiles and samples that have it keep it. Other instances of the service see a
        change within {REFERENCE_CACHE_SECONDS} seconds.
      </p>
      {/* a boundary each: the two sections hydrate one after the other, not in one long task */}
      <Section id="associated-types" title="Associated project types">
        <Suspense>
          <AssociatedTypesAdmin initial={{ rows: types, at }} />
        </Suspense>
      </Section>
      <Section id="sequencing-centres" title="Sequencing centres">
        <Suspense>
          <SequencingCentresAdmin initial={{ rows: centres, at }} />
        </Suspense>
      </Section>
    </>
  );
}
