import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshEnaChecklists } from '@/lib/sample-checklists/refresh';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * ENA's sample checklists as its reports service publishes them (the stand-in serves fixtures written from ENA's
 * ERC000011, ERC000022 and ERC000053), kept by a daily refresh that keeps the last copy while ENA cannot be reached,
 * and COPO's Darwin Core and FAANG checklists read from their files.
 */

type Summary = {
  checklist_id: string;
  name: string;
  field_count: number;
  mandatory_count: number;
  source: string;
  ena_checklist_id: string;
  refreshed: string;
};
type Field = {
  name: string;
  label: string;
  type: string;
  requirement: string;
  units?: string[];
  choices?: string[];
  regex?: string;
  role?: string;
};

let server: RepositoryServer;
let h: Harness;

beforeAll(async () => {
  server = await startRepositoryServer();
  h = await createHarness({ ENA_WEBIN_URL: server.enaUrl });
});
afterAll(async () => {
  await h?.close();
  await server?.close();
});

const list = async (query = '') =>
  (await (await h.request(`/api/sample/checklists${query}`)).json()) as { number_found: number; data: Summary[] };
const refresh = () => refreshEnaChecklists({ db: h.database.db, config: h.config, logger: h.deps.logger, http: { retries: 0 } });
const health = async () =>
  ((await (await h.request('/api/health?deep=true')).json()) as { ena_checklists: { ok: boolean | null; detail: string } }).ena_checklists;

describe('sample checklists', () => {
  it('knows COPO’s before ENA has been read, and says ENA has not been', async () => {
    expect((await list()).data.map((c) => c.checklist_id)).toEqual(['COPO_DWC', 'COPO_FAANG']);
    expect(await health()).toMatchObject({ ok: null, detail: 'ENA’s checklists have not been read yet.' });
  });

  it('lists ENA’s as its reports service publishes them, with their fields in order', async () => {
    expect(await refresh()).toMatchObject({ ok: true });
    const all = await list();
    expect(all.data.map((c) => c.checklist_id)).toEqual(['COPO_DWC', 'COPO_FAANG', 'ERC000011', 'ERC000022', 'ERC000053']);
    const erc11 = all.data.find((c) => c.checklist_id === 'ERC000011')!;
    expect(erc11).toMatchObject({ name: 'ENA default sample checklist', source: 'ena', ena_checklist_id: 'ERC000011', mandatory_count: 2 });
    expect((await list('?q=SOIL')).data.map((c) => c.checklist_id)).toEqual(['ERC000022']);

    const detail = (await (await h.request('/api/sample/checklists/ERC000022')).json()) as { fields: Field[] };
    const byName = new Map(detail.fields.map((f) => [f.name, f]));
    expect(detail.fields[0]).toMatchObject({ name: 'project name', requirement: 'mandatory', type: 'text' });
    expect(byName.get('investigation type')).toMatchObject({ type: 'choice', requirement: 'mandatory' });
    expect(byName.get('investigation type')?.choices).toContain('metagenome');
    expect(byName.get('depth')).toMatchObject({ units: ['m'], requirement: 'mandatory' });
    expect(byName.get('water content')?.units).toEqual(['g of water/g of dry weight', 'cm3/cm3', '%']);
    const erc11Detail = (await (await h.request('/api/sample/checklists/ERC000011')).json()) as { fields: Field[] };
    expect(erc11Detail.fields.find((f) => f.name === 'host scientific name')).toMatchObject({ type: 'taxon' });
    expect(await health()).toMatchObject({ ok: true, detail: "Read 3 sample and 2 sequence checklists from ENA's reports service." });
  });

  it('reads COPO’s quirks as what they mean: the alias column, and Darwin Core’s two lat_lon fields', async () => {
    const dwc = (await (await h.request('/api/sample/checklists/COPO_DWC')).json()) as { ena_checklist_id: string; fields: Field[] };
    expect(dwc.ena_checklist_id).toBe('ERC000011');
    expect(dwc.fields[0]).toMatchObject({ name: 'sample', role: 'alias', requirement: 'mandatory' });
    expect(dwc.fields.find((f) => f.label === 'Scientific Name')).toMatchObject({ role: 'scientific_name' });
    expect(dwc.fields.filter((f) => f.label.startsWith('Decimal L')).map((f) => [f.name, f.units])).toEqual([
      ['geographic location (latitude)', ['DD']],
      ['geographic location (longitude)', ['DD']],
    ]);
    const faang = (await (await h.request('/api/sample/checklists/COPO_FAANG')).json()) as { fields: Field[] };
    expect(faang.fields.find((f) => f.name === 'organism')).toMatchObject({ role: 'taxon_id' });
  });

  it('keeps the last copy while the reports service fails, and says why on /api/health', async () => {
    const before = (await list()).data.find((c) => c.checklist_id === 'ERC000011')!;
    server.faults.fail(5, { service: 'ena', path: '/report/checklists', status: 503, body: 'Service Unavailable' });
    const outcome = await refresh();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toMatch(/^ENA's checklists could not be read \(.*503.*\); the copy read \d{4}-\d\d-\d\dT.* is used\.$/);
    const after = (await list()).data.find((c) => c.checklist_id === 'ERC000011')!;
    expect(after).toEqual(before);
    expect(await health()).toMatchObject({ ok: false, detail: outcome.detail });
    server.faults.clear();
    expect(await refresh()).toMatchObject({ ok: true });
  });

  it('answers 404 for a checklist it does not know, and 400 for what is no checklist id', async () => {
    expect((await h.request('/api/sample/checklists/ERC999999')).status).toBe(404);
    expect((await h.request('/api/sample/checklists/..%2Fx')).status).toBe(400);
  });
});
