'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Outcome } from '@/components/ui/mutation-outcome';
import { RegisterSamples } from './register-samples';

/** The register action of one sample's page: once sent, the page is read again and follows it to ENA. */
export function RegisterOne({ svcId, name }: { svcId: string; name: string }) {
  const router = useRouter();
  const [sent, setSent] = useState<string | null>(null);
  return (
    <section aria-label={`Register ${name} at ENA`}>
      <RegisterSamples
        svcIds={[svcId]}
        what={name}
        onDone={(words) => {
          setSent(words);
          router.refresh();
        }}
      />
      <Outcome said={sent ? { ok: true, text: sent } : null} />
    </section>
  );
}
