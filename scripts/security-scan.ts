// Scans a running instance as an outside reviewer would (SECURITY.md): wapiti's attack modules over the portal's pages
// and the API's parameters, signed in with an API key header, then sqlmap at level 3 on the query API's parameters.
// Exits 1 when wapiti finds anything of medium severity or above, or sqlmap an injection. Takes minutes: not in CI.
//
// Usage: npm run security:scan                      a fresh instance (e2e/serve.ts: the built service with local
//                                                   stand-ins for ENA and the rest), a manifest of samples put in
//        SCAN_URL=https://broker.example.org SCAN_KEY=rmb_… npm run security:scan     an instance already running
// Needs wapiti and sqlmap (Debian: apt-get install wapiti sqlmap) and, for a fresh instance, `npm run build`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentDefinition } from '../lib/manifests';
import { E2E_ADMIN } from '../playwright.config';
import { validRows } from '../tests/fixtures/manifests/generate';
import { toXlsx } from '../tests/fixtures/manifests/workbook';

/**
 * A command run to its end with nothing on its input (sqlmap waits on an open input for a prompt that --batch
 * answers), its output kept; rejects when it exits with another status than 0.
 */
function run(command: string, args: string[]): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve({ stdout });
      else reject(new Error(`${command} exited with ${code}: ${Buffer.concat(err).toString('utf8').slice(-2000)}`));
    });
  });
}
const work = mkdtempSync(path.join(tmpdir(), 'rmb-scan-'));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(base: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${base} did not answer /api/health within four minutes`);
}

/** A fresh instance on its own port and data, as the browser tests start one. */
async function startInstance(): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'e2e/serve.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: path.join(work, 'data'),
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
    },
  });
  const base = `http://localhost:${port}`;
  await waitForHealth(base);
  return { base, child };
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** An API key for the admin, and a confirmed manifest of three samples, so the query API answers with rows. */
async function seed(base: string): Promise<{ key: string; profileId: string; manifestId: string; svcId: string }> {
  const made = await fetch(`${base}/api/apiKey`, json(E2E_ADMIN));
  const key = ((await made.json()) as { token: string }).token;
  const auth = { authorization: `token ${key}` };
  const profile = await fetch(`${base}/api/profiles`, {
    ...json({ title: 'Scanned profile', description: 'samples for the security scan', type: 'dtol' }),
    headers: { ...auth, 'content-type': 'application/json' },
  });
  const profileId = ((await profile.json()) as { id: string }).id;
  const definition = currentDefinition('dtol');
  const workbook = await toXlsx(
    definition.fields.map((f) => f.name),
    validRows(definition, 3),
    { typed: true },
  );
  const form = new FormData();
  form.set('profile_id', profileId);
  form.set('file', new File([new Uint8Array(workbook)], 'scan.xlsx'));
  const upload = await fetch(`${base}/api/manifest/validate`, { method: 'POST', headers: auth, body: form });
  const reportId = ((await upload.json()) as { report_id: string }).report_id;
  for (let i = 0; i < 120; i++) {
    const r = (await (await fetch(`${base}/api/manifest/validate/report/${reportId}`, { headers: auth })).json()) as { status: string };
    if (r.status === 'complete' || r.status === 'failed') break;
    await new Promise((res) => setTimeout(res, 1000));
  }
  const confirmed = await fetch(`${base}/api/manifest/validate/confirm`, {
    ...json({ validation_report_id: reportId }),
    headers: { ...auth, 'content-type': 'application/json' },
  });
  const manifestId = ((await confirmed.json()) as { manifest_id: string }).manifest_id;
  const samples = (await (await fetch(`${base}/api/manifest/${manifestId}`)).json()) as { data: { svc_id: string }[] };
  return { key, profileId, manifestId, svcId: samples.data[0]?.svc_id ?? '' };
}

/** The query API's parameters and the signed-in reads, with values that match the seeded samples. */
function targets(base: string, s: { profileId: string; manifestId: string; svcId: string }): string[] {
  return [
    `${base}/api/manifest?project=dtol&return_type=json`,
    `${base}/api/manifest/${s.manifestId}?standard=dwc&return_type=json`,
    `${base}/api/manifest/${s.manifestId}/sample_status?return_type=json`,
    `${base}/api/manifest/dtol/2024-01-01/2099-01-01?return_type=json`,
    `${base}/api/sample/svc_id/${s.svcId}?standard=ena`,
    `${base}/api/sample/biosampleAccessions/SAMEA1?return_type=json`,
    `${base}/api/sample/sample_field/HABITAT/Woodland?return_type=json`,
    `${base}/api/sample/taxon_id/7227?return_type=json`,
    `${base}/api/sample/sequencing_centre?sequencing_centre=SANGER`,
    `${base}/api/sample/associated_tol_project?project=dtol&associated_tol_project=DTOL`,
    `${base}/api/sample/tube_or_well_ids?project=dtol&d_from=2024-01-01&d_to=2099-01-01`,
    `${base}/api/sample/2024-01-01/2099-01-01?return_type=json`,
    `${base}/api/sample/dtol`,
    `${base}/api/audit/samples?return_type=json`,
    `${base}/api/audit/sample/manifest_id/${s.manifestId}?return_type=json`,
    `${base}/api/audit/sample/update_type/user?return_type=json`,
    `${base}/api/audit/sample/TUBE_OR_WELL_ID/FD00000001?return_type=json`,
    `${base}/api/stats/number_of_samples?project=dtol`,
    `${base}/api/stats/summary`,
    `${base}/api/samples/browse?q=Lepidoptera&project=dtol&sort=time_created&order=desc&limit=10&offset=0`,
    `${base}/api/audit/browse?q=HABITAT&limit=10`,
    `${base}/api/profiles?q=Scanned&limit=10`,
    `${base}/api/profiles/${s.profileId}/samples/summary`,
    `${base}/api/submissions?limit=10`,
    `${base}/api/mapping?project=dtol&standard=dwc`,
  ];
}

interface WapitiReport {
  vulnerabilities: Record<string, { level: number | string; path: string; parameter: string; info: string }[]>;
  anomalies: Record<string, { level: number | string; path: string; info: string }[]>;
}

// wapiti's levels (wapitiCore/language/vulnerability.py)
const LEVEL_WORDS: Record<number, string> = { 0: 'info', 1: 'low', 2: 'medium', 3: 'high', 4: 'critical' };

async function wapiti(base: string, key: string, urls: string[]): Promise<string[]> {
  const report = path.join(work, 'wapiti.json');
  const args = [
    '-u',
    `${base}/`,
    '--scope',
    'folder',
    ...urls.flatMap((u) => ['-s', u]),
    '-H',
    `Authorization: token ${key}`,
    '-m',
    'sql,blindsql,xss,permanentxss,exec,file,crlf,redirect,methods,csp,http_headers,cookieflags',
    '--flush-session',
    '--store-session',
    path.join(work, 'wapiti-session'),
    '--max-scan-time',
    String(Number(process.env.SCAN_WAPITI_SECONDS ?? 1800)),
    '-f',
    'json',
    '-o',
    report,
  ];
  await run('wapiti', args);
  const found = JSON.parse(readFileSync(report, 'utf8')) as WapitiReport;
  const lines: string[] = [];
  for (const [category, items] of Object.entries({ ...found.vulnerabilities, ...found.anomalies })) {
    for (const v of items) lines.push(`wapiti ${LEVEL_WORDS[Number(v.level)] ?? v.level}: ${category} at ${v.path} — ${v.info}`);
  }
  return lines;
}

async function sqlmap(key: string, urls: string[]): Promise<string[]> {
  const list = path.join(work, 'sqlmap-targets.txt');
  writeFileSync(list, `${urls.join('\n')}\n`);
  const out = path.join(work, 'sqlmap');
  const { stdout } = await run('sqlmap', [
    '-m',
    list,
    '--batch',
    '--level',
    '3',
    '--risk',
    '1',
    '--headers',
    `Authorization: token ${key}`,
    '--output-dir',
    out,
    '--disable-coloring',
  ]);
  const tested = stdout.split('\n').filter((l) => /\[INFO\] testing URL/.test(l)).length;
  console.log(`sqlmap tested ${tested} of ${urls.length} addresses`);
  return stdout
    .split('\n')
    .filter((l) => /identified the following injection point|is vulnerable/i.test(l) && !/might (not )?be/.test(l))
    .map((l) => `sqlmap: ${l.trim()}`);
}

let instance: { base: string; child: ChildProcess } | undefined;
try {
  if (!process.env.SCAN_URL) instance = await startInstance();
  const base = process.env.SCAN_URL ?? instance?.base ?? '';
  const seeded = process.env.SCAN_KEY
    ? { key: process.env.SCAN_KEY, profileId: process.env.SCAN_PROFILE ?? '000000000000000000000000', manifestId: '', svcId: '' }
    : await seed(base);
  const urls = targets(base, seeded);
  console.log(`scanning ${base}: ${urls.length} API addresses with their parameters, and the pages they link to`);
  const findings = await wapiti(base, seeded.key, urls);
  const serious = findings.filter((f) => /^wapiti (critical|high|medium)/.test(f));
  for (const f of findings) console.log(f);
  console.log(`wapiti: ${findings.length} finding(s), ${serious.length} of medium severity or above`);
  const injections = await sqlmap(seeded.key, urls);
  for (const i of injections) console.log(i);
  console.log(
    `sqlmap (level 3, ${urls.length} addresses): ${injections.length ? `${injections.length} injection(s)` : 'no injection found'}`,
  );
  process.exitCode = serious.length || injections.length ? 1 : 0;
} finally {
  instance?.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
