import { expect } from 'vitest';
import type { Harness } from './support/harness';

/**
 * A client of the query API written the way existing clients of the reference system are (fetch, read `data[0]`,
 * follow ids), as a function so that it can run against any harness: samples seeded straight into the tables here,
 * samples created through the real manifest upload flow elsewhere. Returns what it read, for further checks.
 */
export interface ClientInput {
  /** an accessioned sample's BioSamples accession */
  biosampleAccession: string;
  /** a taxon id some samples have */
  taxonId: string;
}

export interface ClientSample {
  svc_id: string;
  number_found: number;
  public_name: string;
  TAXON_ID: string;
  tol_project: string;
  status: string;
  biosampleAccession: string;
}

export interface ClientReport {
  manifestId: string;
  crate: { '@context': unknown; '@graph': Record<string, unknown>[] };
  samples: ClientSample[];
}

type Wrapper = { status: string; number_found: number; data: Record<string, string>[] };

async function getJson<T>(h: Pick<Harness, 'request'>, path: string): Promise<T> {
  const res = await h.request(path, { headers: { accept: 'application/json' } });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as T;
}

export async function runReferenceClient(h: Pick<Harness, 'request'>, input: ClientInput): Promise<ClientReport> {
  // 1. accession -> manifest -> RO-Crate
  const byAccession = await getJson<Wrapper>(h, `/api/sample/biosampleAccessions/${encodeURIComponent(input.biosampleAccession)}`);
  expect(byAccession.status).toBe('OK');
  expect(byAccession.number_found).toBeGreaterThanOrEqual(1);
  const manifestId = byAccession.data[0]?.manifest_id as string;
  expect(manifestId).toMatch(/^[0-9a-f-]{36}$/);
  const crate = await getJson<ClientReport['crate']>(h, `/api/manifest/${manifestId}?return_type=rocrate`);
  expect(Array.isArray(crate['@graph'])).toBe(true);
  const descriptor = crate['@graph'].find((e) => e['@id'] === 'ro-crate-metadata.json') as { about: { '@id': string } };
  expect(descriptor.about['@id']).toContain(`/api/manifest/${manifestId}`);

  // 2. taxon -> svc_ids -> each sample
  const byTaxon = await getJson<Wrapper>(h, `/api/sample/sample_field/TAXON_ID/${encodeURIComponent(input.taxonId)}`);
  expect(byTaxon.status).toBe('OK');
  expect(byTaxon.number_found).toBe(byTaxon.data.length);
  // values match as substrings: a careful client keeps the exact taxon only
  const ids = byTaxon.data.filter((r) => r.TAXON_ID === input.taxonId).map((r) => r.svc_id as string);
  expect(ids.length).toBeGreaterThanOrEqual(1);
  const samples: ClientSample[] = [];
  for (const id of ids) {
    const one = await getJson<Wrapper>(h, `/api/sample/svc_id/${id}`);
    expect(one.number_found).toBe(1);
    const r = one.data[0] as Record<string, string>;
    for (const key of ['public_name', 'TAXON_ID', 'tol_project', 'status', 'biosampleAccession']) expect(r).toHaveProperty(key);
    expect(r.TAXON_ID).toBe(input.taxonId);
    expect(['ASG', 'DTOL', 'DTOLENV', 'ERGA']).toContain(r.tol_project);
    samples.push({
      svc_id: id,
      number_found: one.number_found,
      public_name: r.public_name as string,
      TAXON_ID: r.TAXON_ID as string,
      tol_project: r.tol_project as string,
      status: r.status as string,
      biosampleAccession: r.biosampleAccession as string,
    });
  }
  return { manifestId, crate, samples };
}
