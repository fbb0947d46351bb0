import { eq, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enaSampleCache, studies } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { createEnaClient } from '@/lib/repositories/ena';
import { FIRST_DATA_ROW } from '@/lib/studies/layout';
import { bytesOf, createProfile, definition, registerSamples, studiesApi } from './fixtures/studies/api';
import { columnOf, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { captureLogger } from './support/repository-server/log';

/**
 * A single-cell sheet's samples are referenced by BioSample accession (docs/studies-and-checklists.md §9): the profile's
 * own samples, else what ENA holds — the broker's Webin account first (its private samples too), then ENA's public
 * browser API — with the row's taxon and scientific name checked against ENA's answer.
 */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';
const PUBLIC = { accession: 'SAMEA7524530', taxonId: '9606', scientificName: 'Homo sapiens' };

let server: RepositoryServer;
let withWebin: Harness;
let publicOnly: Harness;
let def: ChecklistDefinition;

async function setUp(h: Harness) {
  const { key } = await h.user();
  const profileId = await createProfile(h, key, 'Atlas of one study');
  return { key, profileId, api: studiesApi(h, key, profileId) };
}

beforeAll(async () => {
  server = await startRepositoryServer();
  const ena = {
    ENA_WEBIN_URL: server.enaUrl,
    ENA_USERNAME: server.credentials.ena.username,
    ENA_PASSWORD: server.credentials.ena.password,
    ENA_BROWSER_URL: server.browserUrl,
  };
  [withWebin, publicOnly] = await Promise.all([createHarness(ena), createHarness({ ENA_BROWSER_URL: server.browserUrl })]);
  def = await definition(publicOnly, SCHEMA, CHECKLIST);
});
afterAll(async () => {
  await Promise.all([withWebin.close(), publicOnly.close()]);
  await server.close();
});
beforeEach(() => server.faults.clear());

/** A sheet whose sample rows reference these samples, and with a cell of the first sample row changed. */
async function sheet(
  _h: Harness,
  api: ReturnType<typeof studiesApi>,
  studyId: string,
  samples: (typeof PUBLIC)[],
  edit?: (ws: ExcelJS.Worksheet) => void,
) {
  const template = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const wb = await fillTemplate(template, def, fixtureComponents(def, { studyId, samples, rows: samples.length }));
  if (edit) edit(wb.getWorksheet('sample')!);
  return workbookBytes(wb);
}

const cellOf = (ws: ExcelJS.Worksheet, term: string, k = 0) =>
  ws.getRow(FIRST_DATA_ROW + k).getCell(columnOf(ws, def.components.find((c) => c.key === 'sample')!, term));

const browserAsks = (accession: string) =>
  server.requests.filter((r) => r.service === 'browser' && r.path.endsWith(`/xml/${accession}`)).length;

describe('a BioSample that only ENA holds', () => {
  it('is accepted from the public browser API when the service has no Webin account, and asked once', async () => {
    const { api, profileId } = await setUp(publicOnly);
    const before = browserAsks(PUBLIC.accession);
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'PUB1', [PUBLIC]));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(browserAsks(PUBLIC.accession)).toBe(before + 1);
    const [row] = await publicOnly.database.db.select().from(studies).where(eq(studies.profileId, profileId));
    expect(row!.components.sample![0]).toMatchObject({ biosampleAccession: PUBLIC.accession, taxon_id: '9606' });

    // the answer is cached: a second sheet referencing it does not ask ENA again
    const again = await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'PUB2', [PUBLIC]));
    expect(again.status).toBe(200);
    expect(browserAsks(PUBLIC.accession)).toBe(before + 1);
  });

  it('is found through the Webin account when it is the broker’s own private sample, which the public API does not show', async () => {
    const client = createEnaClient({
      baseUrl: server.enaUrl,
      username: server.credentials.ena.username,
      password: server.credentials.ena.password,
      logger: captureLogger().logger,
    });
    const receipt = await client.submit({
      submission: { actions: [{ type: 'ADD' }] },
      samples: [
        { alias: 'private-pbmc-1', taxonId: '9606', title: 'PBMC donor 2', attributes: [{ tag: 'ENA-CHECKLIST', value: 'ERC000011' }] },
      ],
    });
    const biosample = receipt.byAlias.SAMPLE['private-pbmc-1']!.biosampleAccession!;
    const priv = { accession: biosample, taxonId: '9606', scientificName: 'Homo sapiens' };

    const { api } = await setUp(withWebin);
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet(withWebin, api, 'PRIV1', [priv]));
    expect(res.status, await res.clone().text()).toBe(200);
    const dropBox = server.requests.filter((r) => r.path.endsWith(`/drop-box/samples/${biosample}`));
    expect(dropBox).toHaveLength(1);
    expect(dropBox[0]).toMatchObject({ auth: 'basic', status: 200 });

    // without the account the same sample is unknown: it is private
    const other = await setUp(publicOnly);
    const refused = await expectProblem(
      await other.api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, other.api, 'PRIV2', [priv])),
      422,
    );
    expect(JSON.stringify(refused.errors)).toContain('Invalid ENA sample');
  });

  it('must carry the taxon and scientific name ENA has for it', async () => {
    const { api } = await setUp(publicOnly);
    const wrongTaxon = await expectProblem(
      await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'TAX1', [PUBLIC], (ws) => (cellOf(ws, 'taxon_id').value = '10090'))),
      422,
    );
    expect(wrongTaxon.errors).toEqual([
      expect.objectContaining({
        sheet: 'sample',
        row: 5,
        column: 'Taxon ID',
        value: '10090',
        message: `Sheet sample: Invalid value 10090 not match with 9606 in column taxon_id at row 5 (ENA's sample ${PUBLIC.accession}).`,
      }),
    ]);
    const wrongName = await expectProblem(
      await api.upload(
        SCHEMA,
        CHECKLIST,
        await sheet(publicOnly, api, 'TAX2', [PUBLIC], (ws) => (cellOf(ws, 'scientific_name').value = 'Mus musculus')),
      ),
      422,
    );
    expect(wrongName.errors).toEqual([
      expect.objectContaining({ column: 'Scientific Name or Organism (optional)', value: 'Mus musculus' }),
    ]);
    // the same name in another case, and the taxon typed as a number, are the same values
    const typed = await api.upload(
      SCHEMA,
      CHECKLIST,
      await sheet(publicOnly, api, 'TAX3', [PUBLIC], (ws) => {
        cellOf(ws, 'scientific_name').value = 'homo  sapiens';
        cellOf(ws, 'taxon_id').value = 9606;
      }),
    );
    expect(typed.status, await typed.clone().text()).toBe(200);
  });

  it('is an error on its row when neither the profile nor ENA has it', async () => {
    const { api } = await setUp(withWebin);
    const unknown = { ...PUBLIC, accession: 'SAMEA99999999' };
    const body = await expectProblem(await api.upload(SCHEMA, CHECKLIST, await sheet(withWebin, api, 'NONE1', [unknown])), 422);
    expect(body.errors).toEqual([
      expect.objectContaining({
        row: 5,
        value: 'SAMEA99999999',
        message:
          'Sheet sample: Invalid value SAMEA99999999 in column Biosample Accession at row 5. Invalid ENA sample: neither this profile nor ENA holds a sample with this accession.',
      }),
    ]);
  });
});

describe('when ENA cannot be reached', () => {
  it('answers 503 with Retry-After, says why, and stores nothing', async () => {
    const { api, profileId } = await setUp(publicOnly);
    const fresh = { ...PUBLIC, accession: 'SAMEA12907823', taxonId: '8036', scientificName: 'Salvelinus alpinus' };
    await publicOnly.database.db.delete(enaSampleCache).where(eq(enaSampleCache.accession, fresh.accession));
    server.faults.fail(10, { service: 'browser', status: 503 });
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'DOWN1', [fresh]));
    const body = await expectProblem(res, 503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(body.detail).toMatch(/^ENA could not be reached to look up the BioSample accessions of the sheet .* Nothing was stored/);
    expect(await publicOnly.database.db.select().from(studies).where(eq(studies.profileId, profileId))).toEqual([]);
  });

  it('uses what ENA said before, however old, rather than refuse a sample it has already seen', async () => {
    const { api } = await setUp(publicOnly);
    await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'STALE1', [PUBLIC]));
    await publicOnly.database.db.update(enaSampleCache).set({ fetchedAt: sql`now() - interval '400 days'` });
    server.faults.fail(10, { service: 'browser', status: 503 });
    const res = await api.upload(SCHEMA, CHECKLIST, await sheet(publicOnly, api, 'STALE2', [PUBLIC]));
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

it('asks ENA nothing about a sample the profile holds', async () => {
  const { api, profileId } = await setUp(withWebin);
  const own = { accession: 'SAMEA7000001', taxonId: '9606', scientificName: 'Homo sapiens' };
  await registerSamples(withWebin, profileId, [own]);
  const before = server.requests.length;
  const res = await api.upload(SCHEMA, CHECKLIST, await sheet(withWebin, api, 'OWN1', [own]));
  expect(res.status, await res.clone().text()).toBe(200);
  expect(server.requests.slice(before).filter((r) => r.service === 'browser' || r.path.includes('/drop-box/samples/'))).toEqual([]);
});
