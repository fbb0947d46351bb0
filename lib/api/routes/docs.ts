import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ApiApp } from '../context';
import { problem } from '../errors';

// Served from node_modules so the docs page works with no internet access.
const SWAGGER_DIR = path.join(process.cwd(), 'node_modules', 'swagger-ui-dist');
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
  <script>
    window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#docs', deepLinking: true,
      persistAuthorization: true, tryItOutEnabled: true });
  </script>
</body>
</html>`;

export function registerDocsRoutes(app: ApiApp) {
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Research Metadata Broker API',
      version: '1.0.0',
      description:
        'Brokers biological research metadata (Tree of Life manifests, single-cell and imaging studies) to ENA and ' +
        'Zenodo. Endpoints marked with a lock need `Authorization: token <key>`; get a key from `POST /api/apiKey`.',
    },
    servers: [{ url: '/' }],
  });
  app.get('/docs', (c) => c.html(PAGE));
  app.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    const type = ASSETS[file];
    if (!type) return problem(c, 404, `No asset ${file}`);
    const body = await readFile(path.join(SWAGGER_DIR, file));
    return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  app.get('/', (c) => c.redirect('/api/docs', 302));
}
