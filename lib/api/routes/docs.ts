import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from '@hono/zod-openapi';
import { DOCS_POLICY } from '@/lib/security-headers';
import type { ApiApp } from '../context';
import { declare, describePolicies, route } from '../policy';

type OpenAPIObject = ReturnType<ApiApp['getOpenAPI31Document']>;

import { problem } from '../errors';
import { problemResponses } from '../schemas';

// Served from node_modules so the docs page works with no internet access.
const SWAGGER_DIR = path.join(process.cwd(), 'node_modules', 'swagger-ui-dist');
// the page's one script of its own, a file rather than inline: the page's policy runs no inline script
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true,
  persistAuthorization: true, tryItOutEnabled: true });
`;
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Research Metadata Broker API</title>
  <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
  <link rel="icon" href="/api/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="docs"></div>
  <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/api/docs/assets/init.js"></script>
</body>
</html>`;

// the docs page's own files: not part of the API, so not in its document
const asset = route(
  {
    method: 'get',
    path: '/docs/assets/{file}',
    hide: true,
    request: { params: z.object({ file: z.string() }) },
    responses: { 200: { description: 'The file' } },
  },
  { access: 'anyone' },
);

export function registerDocsRoutes(app: ApiApp) {
  const config = {
    openapi: '3.1.0',
    info: {
      title: 'Research Metadata Broker API',
      version: '1.0.0',
      description:
        'Brokers biological research metadata (Tree of Life manifests, single-cell and imaging studies) to ENA and ' +
        'Zenodo. Endpoints marked with a lock need `Authorization: token <key>`; get a key from `POST /api/apiKey`.',
    },
    servers: [{ url: '/' }],
  };
  // the document and the page are public, as the API's description says
  for (const page of ['/openapi.json', '/docs', '/']) declare('get', page, { access: 'anyone' });
  let document: OpenAPIObject | undefined;
  app.get('/openapi.json', (c) => {
    // built once, on first request: every route is registered by then
    if (!document) {
      document = withKeyGuessingLimit(app.getOpenAPI31Document(config));
      describePolicies(document.paths ?? {}, c.get('deps').config);
    }
    return c.json(document);
  });
  app.get('/docs', (c) => c.html(PAGE, 200, { 'content-security-policy': DOCS_POLICY }));
  app.openapi(asset, async (c) => {
    const { file } = c.req.valid('param');
    if (file === 'init.js')
      return c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=86400' });
    const type = ASSETS[file];
    if (!type) return problem(c, 404, `No asset ${file}`);
    const body = await readFile(path.join(SWAGGER_DIR, file));
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  app.get('/', (c) => c.redirect('/api/docs', 302));
}

/**
 * Every operation that takes an API key can answer 429: a client that sent too many unknown keys is refused before
 * the route runs (lib/api/auth.ts), so the answer is documented here once rather than on each route.
 */
function withKeyGuessingLimit(doc: OpenAPIObject): OpenAPIObject {
  for (const path of Object.values(doc.paths ?? {})) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const op = path[method];
      if (op?.security?.length && op.responses && !op.responses['429']) {
        op.responses['429'] = {
          description: problemResponses[429].description,
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        };
      }
    }
  }
  return doc;
}
