/**
 * The layers (docs/architecture.md), checked by `npm run lint`:
 *
 *   app, components (the portal) ─┐
 *   lib/api (the HTTP faces)  ────┼─→ domains (lib/<domain>) ─→ base modules ─→ db ─→ contracts
 *   lib/server, server (composition: may import anything)
 *
 * Base modules (lib/jobs, lib/repositories, lib/files, lib/spreadsheets, lib/values, lib/metrics, lib/errors,
 * lib/config, lib/logger, lib/crash-points, lib/concurrency, lib/security-headers) import no domain; db imports
 * contracts only; nothing below the faces imports them; and no module imports one that imports it back.
 */
const DOMAINS =
  '^lib/(approvals|audit|auth|browse|checklists|groups|health|identifiers|images|mail|manifests|permits|profiles|projects|query|removal|reports|sample-checklists|samples|seed|standards|stats|studies|submissions|users)/';
const CONTRACT = '(^lib/[^/]+/contract\\.ts$|^lib/manifests/rules/catalogue\\.json$)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module may not import one that imports it back (type-only imports included).',
      from: { path: '^(lib|db|app|components|server)/' },
      to: { circular: true },
    },
    {
      name: 'db-imports-contracts-only',
      severity: 'error',
      comment: 'The data layer knows the contracts (JSONB shapes, lists for CHECKs), never a domain’s logic.',
      from: { path: '^db/' },
      to: { path: '^lib/', pathNot: CONTRACT },
    },
    {
      name: 'base-imports-no-domain',
      severity: 'error',
      comment: 'The infrastructure serves the domains; a domain’s contract is the most it may know.',
      from: {
        path: '^lib/(jobs|repositories|files|spreadsheets|values|metrics|errors\\.ts|config\\.ts|logger\\.ts|crash-points\\.ts|concurrency\\.ts|security-headers\\.ts)',
      },
      to: { path: DOMAINS, pathNot: CONTRACT },
    },
    {
      name: 'lib-imports-no-face',
      severity: 'error',
      comment: 'Domains and infrastructure never import the HTTP API, the portal or the composition root.',
      from: { path: '^(lib|db)/', pathNot: '^lib/(api|server|client)/' },
      to: { path: '^(app|components|server)/|^lib/(api|server)/' },
    },
    {
      name: 'portal-imports-no-server-code',
      severity: 'error',
      comment: 'Portal components reach data through the API client or server pages, not the database.',
      from: { path: '^components/' },
      to: { path: '^(db/client|lib/server/|lib/api/app)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|\\.next|\\.data)/' },
    tsPreCompilationDeps: true,
    ...(require('node:fs').existsSync('tsconfig.json') && { tsConfig: { fileName: 'tsconfig.json' } }),
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
