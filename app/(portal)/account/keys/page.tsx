import type { Metadata } from 'next';
import { ApiKeysManager } from '@/components/account/api-keys-manager';
import { config } from '@/lib/config';

export const metadata: Metadata = { title: 'API keys' };

export default function ApiKeysPage() {
  return (
    <>
      <h1>API keys</h1>
      <p>
        Scripts and pipelines call the API with a key in the <code>Authorization</code> header. A key is shown once, when it is created;
        keep it like a password and revoke it when it is no longer needed.
      </p>
      <ApiKeysManager baseUrl={config().baseUrl} />
    </>
  );
}
