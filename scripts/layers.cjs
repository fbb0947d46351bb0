/**
 * Every folder and top-level file of lib/, by layer. One list for three readers: .dependency-cruiser.cjs builds its
 * rules from it (`npm run lint`), scripts/layer-map.mjs prints docs/architecture.md's layer map from it, and
 * tests/docs.test.ts fails when an entry of lib/ is in no list or the map in the docs differs from the printed one.
 * A new folder of lib/ goes in one list, with a few words on what it holds.
 */

/** Plain functions `(db, input) => result`; a domain may import another domain and the base, never a face. */
const domains = {
  approvals: 'who approves which sample (associated types, sample managers)',
  audit: 'the history of every sample record (audit_events, sample changes)',
  auth: 'sign-in, API keys, sessions, ORCID, password reset, the limits on guessing',
  barcodes: "a ToL profile's DNA barcodes: the barcoding sheet, its checks, submission with Webin-CLI (-context sequence)",
  'biodata-samples': "a biodata profile's samples: sheet, checks, confirm, registration at ENA",
  browse: "the portal's sample and audit browsers (filters, columns, CSV)",
  checklists: 'single-cell and imaging study checklists and their schema workbooks',
  groups: 'groups of people a profile is shared with',
  health: 'what GET /api/health checks: database, queue, storage, the hubs last heard from',
  identifiers: 'identifier shapes (svc_id, profile_id, accessions): a contract and the patterns it is made from',
  images: 'specimen images: checks, thumbnails, sending them to the BioImage Archive',
  mail: 'the emails the service sends, the outbox and its job',
  manifests: 'Tree of Life manifests: definitions, templates, parsing, every validation rule',
  permits: 'ERGA permits: which a manifest needs, the PDFs',
  profiles: 'profiles, their data files, who may use one (access.ts, shares.ts)',
  projects: 'the Tree of Life projects and profile types: a contract and the lists it is made from',
  query: 'the public query API: sample and manifest rows, streamed',
  reference: 'associated project types and sequencing centres: the tables admins edit, read through one cached module',
  removal: 'deleting what was uploaded by mistake, across domains',
  reports: 'validation reports: create, the job, confirm into samples, the permits step',
  'sample-checklists': "ENA's and COPO's sample checklists, kept current",
  samples: 'decisions, registration routing, ToLIDs, traditional-knowledge rights, reminders',
  standards: 'sample records in the Tree of Life, DwC, ENA and MIxS names; JSON, CSV and RO-Crate writers',
  stats: 'statistics and the public dashboard',
  studies: 'single-cell and imaging studies: upload, checks, exports',
  submissions: 'registration of samples and studies at ENA and Zenodo',
  users: 'accounts, passwords, roles and memberships',
};

/** The infrastructure: knows no domain (a domain's contract at most). */
const base = {
  jobs: 'the job queue (pg-boss), the sweep, heartbeats, dead letters, retries',
  maintenance: "the database's upkeep where the server does not do it: vacuum and analyse on the embedded database",
  repositories: "clients of ENA, Zenodo, the ToLID service, the Local Contexts Hub, EBI's OLS, the BioImage Archive, Webin-CLI",
  files: 'file storage on disk or S3, signed upload URLs',
  spreadsheets: 'reading workbooks as a stream, after their zip is checked',
  values: 'dates, lists, CSV and text of cells',
  metrics: 'the Prometheus metrics of GET /api/metrics',
  'errors.ts': 'the typed errors domains throw and the API answers',
  'config.ts': 'settings from the environment',
  'logger.ts': 'the JSON log',
  'crash-points.ts': 'named points where the crash tests stop the process',
  'concurrency.ts': 'small helpers for bounded and shared work',
  'security-headers.ts': 'the headers of every answer',
};

/** The faces in lib/ (the portal's own are app/ and components/): they may import any domain. */
const faces = {
  api: 'the HTTP API: one Hono app, its middleware, routes/*.ts as thin adapters',
  client: "the portal's calls to the service's own API from the browser, and the browsers' URL filters",
};

/** The composition in lib/ (with server/): wires everything together, and may import anything. */
const composition = {
  server: 'the runtime: database, seed, first admin, the job list (jobs.ts), the API app, page data',
  seed: 'loaders of the reference data in db/seed/data (they use the domains, which db/ may not)',
};

module.exports = { domains, base, faces, composition };
