import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, samples } from '@/db/schema';
import { refreshEnaChecklists } from '@/lib/sample-checklists/refresh';
import { barcodingSheet, COI, coiRow } from './fixtures/barcodes/sheet';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * DNA barcodes of a Tree of Life profile's specimens: the ToL barcoding sheet, filled with the COI checklist's
 * (ERT000020) fields, checked against the checklist ENA publishes, stored, and sent through Webin-CLI (its stand-in,
 * tests/support/webin-cli) as a TAB file: `-validate`, then `-submit`, the ERZ back on the barcodes. Without
 * WEBIN_CLI_JAR the barcodes wait, saying why.
 */

const STAND_IN = path.resolve(import.meta.dirname, 'support/webin-cli/java');

interface LoggedCall {
  argv: string[];
  manifest: Record<string, string | string[]> | null;
  passwordSet: boolean;
}
interface Issue {
  sheet: string;
  row: number | null;
  column: string | null;
  field: string | null;
  value: string | null;
  rule: string;
  message: string;
}
interface Barcode {
  id: string;
  specimen_id: string;
  entry_number: string;
  checklist_id: string;
  status: string;
  error: string | null;
  accession: string | null;
  fields: Record<string, string>;
}

let server: RepositoryServer;
let root: string;
let logFile: string;
/** Webin-CLI configured (the stand-in) */
let h: Harness;
/** no WEBIN_CLI_JAR */
let bare: Harness;

const SPECIMENS = [
  { specimenId: 'NHMUK014425848', tolid: 'ilAglIo1', scientificName: 'Aglais io' },
  { specimenId: 'NHMUK014425849', tolid: 'ilVanAtal1', scientificName: 'Vanessa atalanta' },
];
/** A ToL profile whose samples come from SPECIMENS, as confirmed manifests leave them. */
async function tolProfile(harness: Harness): Promise<{ key: string; profileId: string }> {
  const { key, user } = await harness.user({ memberOf: ['dtol'] });
  const res = await harness.request('/api/profiles', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Moths and butterflies', description: 'barcoded', type: 'dtol' }),
  });
  expect(res.status).toBe(201);
  const profileId = ((await res.json()) as { id: string }).id;
  const db = harness.database.db;
  const manifestId = randomUUID();
  await db.insert(manifests).values({ id: manifestId, profileId, project: 'dtol', version: '2.5' });
  await db.insert(samples).values(
    SPECIMENS.map((s) => ({
      id: randomBytes(12).toString('hex'),
      manifestId,
      profileId,
      project: 'dtol' as const,
      manifestVersion: '2.5',
      status: 'accepted' as const,
      fields: { SPECIMEN_ID: s.specimenId, SCIENTIFIC_NAME: s.scientificName },
      specimenId: s.specimenId,
      scientificName: s.scientificName,
      publicName: s.tolid,
      createdBy: user.id,
    })),
  );
  return { key, profileId };
}

const upload = (harness: Harness, key: string, profileId: string, bytes: Uint8Array, form: Record<string, string> = {}) => {
  const fd = new FormData();
  fd.set('file', new File([Buffer.from(bytes)], 'barcodes.xlsx'));
  for (const [k, v] of Object.entries(form)) fd.set(k, v);
  return harness.request(`/api/profiles/${profileId}/barcodes`, { method: 'POST', key, body: fd });
};

const listed = async (harness: Harness, key: string, profileId: string) =>
  (await (await harness.request(`/api/profiles/${profileId}/barcodes`, { key })).json()) as { number_found: number; data: Barcode[] };

const calls = async (): Promise<LoggedCall[]> =>
  (await readFile(logFile, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedCall);

beforeAll(async () => {
  server = await startRepositoryServer();
  root = await mkdtemp(path.join(os.tmpdir(), 'barcodes-'));
  // the stand-in reads nothing from the jar, only that it exists, as Java does
  const jar = path.join(root, 'webin-cli-9.0.0.jar');
  await writeFile(jar, '');
  logFile = path.join(root, 'calls.jsonl');
  // Java as the service starts it, with the stand-in's log named (the service passes Java none of its own
  // environment), keeping a copy of the TAB file each run reads (the job removes its folder once it ends)
  const java = path.join(root, 'java');
  await writeFile(
    java,
    [
      '#!/bin/sh',
      'prev=',
      'for a in "$@"; do [ "$prev" = "-manifest" ] && manifest="$a"; prev="$a"; done',
      `tab=$(awk '$1 == "TAB" { print $2 }' "$manifest")`,
      `[ -n "$tab" ] && cp "$tab" '${path.join(root, 'last.tsv.gz')}'`,
      `WEBIN_CLI_STANDIN_LOG='${logFile}' exec '${STAND_IN}' "$@"`,
      '',
    ].join('\n'),
  );
  await chmod(java, 0o755);
  h = await createHarness({ ...server.enaSettings, WEBIN_CLI_JAR: jar, JAVA: java });
  bare = await createHarness({ ...server.enaSettings });
  for (const harness of [h, bare]) {
    await refreshEnaChecklists({ db: harness.database.db, config: harness.config, logger: harness.deps.logger, http: { retries: 0 } });
  }
}, 120_000);
afterAll(async () => {
  await h?.close();
  await bare?.close();
  await server?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the barcoding sheet', () => {
  it('stores two COI barcodes of the profile’s specimens, checked against ERT000020', async () => {
    const { key, profileId } = await tolProfile(h);
    const sheet = await barcodingSheet([
      coiRow('NHMUK014425848', 'DTOLB001-23'),
      coiRow('ilVanAtal1', 'DTOLB002-23', { COUNTRY: 'united kingdom' }),
    ]);
    const res = await upload(h, key, profileId, sheet, { study_accession: 'PRJEB76543' });
    expect(res.status, await res.clone().text()).toBe(201);
    const body = (await res.json()) as { checklist_id: string; created: number; data: Barcode[] };
    expect(body.checklist_id).toBe('ERT000020');
    expect(body.created).toBe(2);
    const list = await listed(h, key, profileId);
    expect(list.number_found).toBe(2);
    const byEntry = new Map(list.data.map((b) => [b.entry_number, b]));
    // ENTRYNUMBER from BOLD_ID, the specimen by its ToLID, ORGANISM_NAME from the specimen, a choice respelled
    expect(byEntry.get('DTOLB002-23')).toMatchObject({ specimen_id: 'NHMUK014425849', status: 'pending', accession: null });
    expect(byEntry.get('DTOLB002-23')?.fields).toMatchObject({ ORGANISM_NAME: 'Vanessa atalanta', COUNTRY: 'United Kingdom' });
  });

  it('answers 422 naming the sheet, row and column of each error, and stores nothing', async () => {
    const { key, profileId } = await tolProfile(h);
    const sheet = await barcodingSheet([
      coiRow('NHMUK014425848', 'DTOLB011-23'),
      coiRow('NHMUK999', 'DTOLB012-23', { ENV_SAM: 'maybe', SEQUENCE: 'ACGTXX' }),
    ]);
    const body = await expectProblem(await upload(h, key, profileId, sheet, { study_accession: 'PRJEB76543' }), 422);
    const errors = body.errors as Issue[];
    const headers = [
      'SPECIMEN_ID',
      'BOLD_ID',
      'ENV_SAM',
      'COUNTRY',
      '5_CDS',
      '3_CDS',
      '5_PARTIAL',
      '3_PARTIAL',
      'TRANSLATION_TABLE',
      'CODON_START',
      'SEQUENCE',
    ];
    const letter = (field: string) => String.fromCharCode(65 + headers.indexOf(field));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          sheet: 'Sheet1',
          row: 3,
          column: 'A',
          field: 'SPECIMEN_ID',
          rule: 'unknown_specimen',
          value: 'NHMUK999',
        }),
        expect.objectContaining({
          sheet: 'Sheet1',
          row: 3,
          column: letter('ENV_SAM'),
          field: 'ENV_SAM',
          rule: 'vocabulary',
          value: 'maybe',
        }),
        expect.objectContaining({ sheet: 'Sheet1', row: 3, column: letter('SEQUENCE'), field: 'SEQUENCE', rule: 'pattern' }),
      ]),
    );
    expect(errors.find((e) => e.rule === 'unknown_specimen')?.message).toContain('NHMUK999');
    expect(errors.every((e) => e.row === 3)).toBe(true);
    expect((await listed(h, key, profileId)).number_found).toBe(0);
  });

  it('needs a study accession, and is refused for a profile outside the Tree of Life', async () => {
    const { key, profileId } = await tolProfile(h);
    const body = await expectProblem(await upload(h, key, profileId, await barcodingSheet([coiRow('NHMUK014425848', 'DTOLB021-23')])), 422);
    expect((body.errors as Issue[]).map((e) => e.rule)).toContain('study_needed');

    const other = await h.user();
    const res = await h.request('/api/profiles', {
      method: 'POST',
      key: other.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Cells', description: '', type: 'biodata' }),
    });
    const biodata = ((await res.json()) as { id: string }).id;
    await expectProblem(await upload(h, other.key, biodata, await barcodingSheet([coiRow('X', 'Y')])), 409);
    await expectProblem(await h.request(`/api/profiles/${biodata}/barcodes`, { key: other.key }), 409);
  });
});

describe('to ENA through Webin-CLI', () => {
  it('validates, then submits the TAB file of ERT000020, and keeps the analysis accession', async () => {
    const { key, profileId } = await tolProfile(h);
    const sheet = await barcodingSheet([coiRow('NHMUK014425848', 'DTOLB031-23'), coiRow('NHMUK014425849', 'DTOLB032-23')]);
    expect((await upload(h, key, profileId, sheet, { study_accession: 'PRJEB76543' })).status).toBe(201);
    const res = await h.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key });
    expect(res.status, await res.clone().text()).toBe(202);
    const answer = (await res.json()) as { submissions: { batch_id: string; barcodes: number }[]; waiting: number };
    expect(answer.submissions).toHaveLength(1);
    expect(answer.submissions[0]?.barcodes).toBe(2);
    expect((await listed(h, key, profileId)).data.every((b) => b.status === 'processing')).toBe(true);

    const batchId = answer.submissions[0]!.batch_id;
    const before = (await calls()).length;
    await h.jobs['barcodes.submit']({ batchId });
    const made = (await calls()).slice(before);
    expect(made).toHaveLength(2);
    const [validate, submit] = made;
    for (const call of made) {
      expect(call.argv).toEqual(expect.arrayContaining(['-context', 'sequence']));
      expect(call.passwordSet).toBe(true);
      expect(call.argv.join(' ')).not.toContain(server.enaSettings.ENA_PASSWORD);
      expect(call.manifest).toMatchObject({ STUDY: 'PRJEB76543', NAME: `barcodes-${batchId}` });
    }
    expect(validate?.argv).toContain('-validate');
    expect(submit?.argv).toContain('-submit');
    const tab = gunzipSync(await readFile(path.join(root, 'last.tsv.gz')))
      .toString('utf8')
      .split('\n');
    expect(tab[0]).toBe('#template_accession ERT000020');
    expect(tab[1]?.split('\t')).toEqual(expect.arrayContaining(['ENTRYNUMBER', 'ORGANISM_NAME', 'SEQUENCE']));
    expect(tab.slice(2).filter(Boolean)).toHaveLength(2);

    const list = await listed(h, key, profileId);
    expect(list.data.map((b) => b.status)).toEqual(['accepted', 'accepted']);
    expect(list.data[0]?.accession).toMatch(/^ERZ\d+$/);
    expect(list.data[1]?.accession).toBe(list.data[0]?.accession);

    // what reached ENA keeps its profile, even when nothing else of it did
    await h.database.db.update(samples).set({ status: 'pending' }).where(eq(samples.profileId, profileId));
    const kept = await expectProblem(await h.request(`/api/profiles/${profileId}`, { method: 'DELETE', key }), 409);
    expect(kept.detail).toMatch(/barcode DTOLB03[12]-23 is at ENA \(ERZ\d+\)/);
  });

  it('writes the TAB file ENA’s annotated sequence spreadsheet is: template line, field names, a row per barcode', async () => {
    const { barcodeTabFile } = await import('@/lib/barcodes/tab');
    const { findChecklist } = await import('@/lib/sample-checklists/store');
    const checklist = await findChecklist(h.database.db, 'ERT000020');
    const text = gunzipSync(
      barcodeTabFile(checklist, [
        { fields: { ENTRYNUMBER: 'B1', ORGANISM_NAME: 'Aglais io', ENV_SAM: 'no', CODON_START: '2' }, sequence: COI },
      ]),
    ).toString('utf8');
    const [first, header, row] = text.split('\n');
    expect(first).toBe('#template_accession ERT000020');
    const columns = header!.split('\t');
    expect(columns).toEqual(expect.arrayContaining(['ENTRYNUMBER', 'ORGANISM_NAME', 'ENV_SAM', 'SEQUENCE']));
    expect(columns).not.toContain('COUNTRY');
    expect(row!.split('\t')[columns.indexOf('SEQUENCE')]).toBe(COI);
  });

  it('puts Webin-CLI’s refusal on the barcodes, in its words', async () => {
    const { key, profileId } = await tolProfile(h);
    // CODON_START left out of the sheet: the broker asks for it, so it is dropped from the stored row to reach Webin-CLI
    const sheet = await barcodingSheet([coiRow('NHMUK014425848', 'DTOLB041-23')]);
    expect((await upload(h, key, profileId, sheet, { study_accession: 'PRJEB76543' })).status).toBe(201);
    const { barcodes } = await import('@/db/schema');
    const { eq } = await import('drizzle-orm');
    const [stored] = await h.database.db.select().from(barcodes).where(eq(barcodes.profileId, profileId));
    const { CODON_START: _dropped, ...fields } = stored!.fields;
    await h.database.db.update(barcodes).set({ fields }).where(eq(barcodes.id, stored!.id));
    const answer = (await (await h.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key })).json()) as {
      submissions: { batch_id: string }[];
    };
    await h.jobs['barcodes.submit']({ batchId: answer.submissions[0]!.batch_id });
    const [barcode] = (await listed(h, key, profileId)).data;
    expect(barcode).toMatchObject({ status: 'rejected', accession: null });
    expect(barcode?.error).toContain('CODON_START');
  });

  it('when the last run fails, the barcodes are rejected with the reason, and can be submitted again', async () => {
    const { key, profileId } = await tolProfile(h);
    expect(
      (await upload(h, key, profileId, await barcodingSheet([coiRow('NHMUK014425848', 'DTOLB061-23')]), { study_accession: 'PRJEB76543' }))
        .status,
    ).toBe(201);
    const answer = (await (await h.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key })).json()) as {
      submissions: { batch_id: string }[];
    };
    await h.giveUps['barcodes.submit']?.({ batchId: answer.submissions[0]!.batch_id }, 'ena: Webin-CLI failed (exit 1)');
    const [barcode] = (await listed(h, key, profileId)).data;
    expect(barcode).toMatchObject({ status: 'rejected' });
    expect(barcode?.error).toContain('Webin-CLI failed (exit 1)');
    expect((await h.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key })).status).toBe(202);
  });

  it('without WEBIN_CLI_JAR: the barcodes are checked and wait, saying why', async () => {
    const { key, profileId } = await tolProfile(bare);
    const sheet = await barcodingSheet([coiRow('NHMUK014425848', 'DTOLB051-23'), coiRow('NHMUK014425849', 'DTOLB052-23')]);
    expect((await upload(bare, key, profileId, sheet, { study_accession: 'PRJEB76543' })).status).toBe(201);
    const res = await bare.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ submissions: [], waiting: 2, detail: expect.stringContaining('WEBIN_CLI_JAR is not set') });
    const list = await listed(bare, key, profileId);
    expect(list.data.map((b) => b.status)).toEqual(['waiting', 'waiting']);
    expect(list.data[0]?.error).toContain('WEBIN_CLI_JAR is not set');
    // asked again, nothing more waits to be sent
    await expectProblem(await bare.request(`/api/profiles/${profileId}/barcodes/action/submit`, { method: 'POST', key }), 409);
  });
});
