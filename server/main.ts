import path from 'node:path';
import next from 'next';
import { getRuntime } from '@/lib/server/runtime';
import { compressedPages } from './compressed-pages';
import { serveService } from './http';
import { withStaticAssets } from './static-assets';

/** The production server (`npm start`): the API and the portal behind one Node HTTP server (server/http.ts). */

// the bundle runs from .next/server.mjs: the project is the folder above
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const port = Number(process.env.PORT ?? 3000);

async function main() {
  const runtime = await getRuntime();
  const app = next({ dev: false, dir: root, port });
  await app.prepare();
  serveService(runtime, { port, pages: withStaticAssets(root, compressedPages(app.getRequestHandler())) });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
