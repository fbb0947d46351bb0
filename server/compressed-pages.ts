import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
type Middleware = ReturnType<typeof compression>;

/**
 * The portal's answers (pages, React's payloads, the sign-in's) compressed as they stream out: brotli where the
 * browser takes it, at the quality that costs about what gzip's default does, else gzip. Next.js's own compression,
 * turned off in next.config.js, knows only gzip; it flushes after each chunk it streams either way, so a page's
 * later parts still arrive as they are rendered. The API compresses nothing (its answers stream rows as read).
 */
export function compressedPages(pages: Handler): Handler {
  const compress = compression();
  return (req, res) => {
    compress(req as Parameters<Middleware>[0], res as Parameters<Middleware>[1], () => {
      void pages(req, res);
    });
  };
}
