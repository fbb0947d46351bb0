import type { Metadata } from 'next';
import { ApiKeysManager } from '@/components/account/api-keys-manager';
import { requestOrigin } from '@/lib/server/request-origin';

export const metadata: Metadata = { title: 'API keys' };

export default async function ApiKeysPage() {
  return (
    <>
      <h1>API keys</h1>
      <p>
        Scripts and pipelines call the API with a key in the <code>Authorization</code> header. A key is shown once, when it is created;
        keep it like a password and revoke it when it is no longer needed.
      </p>
      {/* the address this person uses, not the configured one: the example is to be pasted on their machine */}
      <ApiKeysManager baseUrl={await requestOrigin()} />
    </>
  );
}
