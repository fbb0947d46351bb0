import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { AssociatedTypesAdmin } from '@/components/admin/associated-types-admin';
import { SequencingCentresAdmin } from '@/components/admin/sequencing-centres-admin';
import { Section } from '@/components/ui/section';
import { REFERENCE_CACHE_SECONDS } from '@/lib/reference/cache';
import { currentUser } from '@/lib/server/auth-options';

export const metadata: Metadata = { title: 'Reference data' };

export default async function ReferenceDataPage() {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  return (
    <>
      <h1>Reference data</h1>
      <p>
        The associated project types and sequencing centres that ERGA profiles choose from, and who approves their samples. Nothing here is
        deleted: untick “Offered” to retire one, and the profiles and samples that have it keep it. Other instances of the service see a
        change within {REFERENCE_CACHE_SECONDS} seconds.
      </p>
      <Section id="associated-types" title="Associated project types">
        <AssociatedTypesAdmin />
      </Section>
      <Section id="sequencing-centres" title="Sequencing centres">
        <SequencingCentresAdmin />
      </Section>
    </>
  );
}
