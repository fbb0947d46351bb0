/**
 * The layers (docs/architecture.md), checked by `npm run lint`:
 *
 *   app, components (the portal) ─┐
 *   lib/api, lib/client (faces) ──┼─→ domains (lib/<domain>) ─→ base modules ─→ db ─→ contracts
 *   lib/server, lib/seed, server (composition: may import anything)
 *
 * Which folder of lib/ is in which layer is scripts/layers.cjs, the list docs/architecture.md's layer map is printed
 * from. Base modules import no domain (nor a face or the composition); db imports contracts only; nothing below the
 * faces imports them; and no module imports one that imports it back.
 */
const layers = require('./scripts/layers.cjs');

const pattern = (names) => names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
/** what a base module may not import: every folder of lib/ above the base */
const ABOVE_BASE = `^lib/(${pattern(Object.keys({ ...layers.domains, ...layers.faces, ...layers.composition }))})/`;
const BASE = `^lib/(${pattern(Object.keys(layers.base))})`;
/** the faces and the composition in lib/: what nothing else of lib/ may import */
const ON_TOP = `^lib/(${pattern(Object.keys({ ...layers.faces, ...layers.composition }))})/`;
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
      from: { path: BASE },
      to: { path: ABOVE_BASE, pathNot: CONTRACT },
    },
    {
      name: 'lib-imports-no-face',
      severity: 'error',
      comment: 'Domains and infrastructure never import the HTTP API, the portal or the composition root.',
      from: { path: '^(lib|db)/', pathNot: ON_TOP },
      to: { path: `^(app|components|server)/|${ON_TOP}` },
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
