'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
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
      <div aria-live="polite">
        {sent && (
          <p role="status" className="notice success">
            {sent}
          </p>
        )}
      </div>
    </section>
  );
}
