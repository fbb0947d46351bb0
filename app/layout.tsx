import type { Metadata } from 'next';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import './globals.css';
import { Providers } from './providers';

export const metadata: Metadata = {
  title: { default: 'Research Metadata Broker', template: '%s · Research Metadata Broker' },
  description: 'Validates, keeps and brokers biological research metadata to ENA and Zenodo.',
};

/**
 * Every page is rendered per request: its scripts carry the request's nonce (proxy.ts), which a page rendered at build
 * time could not.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
