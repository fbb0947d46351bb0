import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples, specimens, submissions } from '@/db/schema';
import { createEnaClient, type EnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { SAMPLES_PER_DOCUMENT } from '@/lib/submissions/registration/send';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { decideSamples, repositorySettings, runRegistrationHere } from './support/registration-world';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * A registration of more samples than one SAMPLE_SET document carries (lib/submissions/registration/send.ts): its
 * specimens and its samples go in documents of at most SAMPLES_PER_DOCUMENT, each valid against ENA's XSDs (the
 * stand-in refuses a document that is not), each sample added once; a document ENA refuses leaves the other
 * documents' samples registered. The registration runs here, by hand, on a queue without workers.
 */

let server: RepositoryServer;
let h: Harness;
let key: string;
let profileId: string;
let offset = 0;

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(repositorySettings(server, ['ena']), { taxonomy: fakeTaxonomy() });
  ({ key } = await h.user({ username: 'documents-lead', memberOf: ['dtol'], managerOf: ['dtol'] }));
  profileId = await createProfile(h, key, { title: 'Registration in documents', description: '', type: 'dtol' });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await server?.close();
});

/** n accepted samples of a fresh manifest, and their registration's id. */
async function accepted(n: number): Promise<{ ids: string[]; registration: string }> {
  const { manifest_id } = await uploadManifest(h, key, profileId, dtolRows(n, offset), { validateHere: true });
  offset += n;
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  const res = await decideSamples(h, key, { svc_ids: ids, decision: 'accept' });
  expect(res.status, await res.clone().text()).toBe(200);
  const { registrations } = (await res.json()) as { registrations: { submission_id: string; samples: number }[] };
  expect(registrations).toHaveLength(1);
  return { ids, registration: registrations[0]!.submission_id };
}

const run = (registration: string, ena: EnaClient) => runRegistrationHere(h, registration, ena);

const realClient = () => createEnaClient(enaClientOptionsFromConfig(h.config, h.deps.logger));

/** The ADD documents sent from `from` on naming any of these aliases: how many objects each, and whether applied. */
const addsNaming = (from: number, aliases: Set<string>) =>
  server.ena.submissions.slice(from).filter((s) => s.actions.includes('ADD') && s.objects.some((o) => aliases.has(o.alias)));

describe('a registration larger than one document', () => {
  it('sends its specimens and samples in documents of at most SAMPLES_PER_DOCUMENT, each sample added once', async () => {
    const n = SAMPLES_PER_DOCUMENT + 1;
    const { ids, registration } = await accepted(n);
    const before = server.ena.submissions.length;
    await run(registration, realClient());

    const rows = await h.database.db.select().from(samples).where(inArray(samples.id, ids));
    expect(rows.filter((r) => r.status === 'accepted')).toHaveLength(n);
    expect(new Set(rows.map((r) => r.biosampleAccession)).size).toBe(n);
    const specimenIds = new Set(
      (
        await h.database.db
          .select({ id: specimens.id })
          .from(specimens)
          .where(
            inArray(
              specimens.specimenId,
              rows.map((r) => r.specimenId!),
            ),
          )
      ).map((s) => s.id),
    );
    expect(specimenIds.size).toBe(n);
    // every document valid (the stand-in applies none that fails the XSDs) and within the size
    const sampleDocs = addsNaming(before, new Set(ids));
    const specimenDocs = addsNaming(before, specimenIds);
    for (const docs of [sampleDocs, specimenDocs]) {
      expect(docs.every((d) => d.success)).toBe(true);
      expect(docs.map((d) => d.objects.length).sort((a, b) => a - b)).toEqual([1, SAMPLES_PER_DOCUMENT]);
    }
    const aliases = sampleDocs.flatMap((d) => d.objects.map((o) => o.alias));
    expect(new Set(aliases).size).toBe(n);
    expect(aliases).toHaveLength(n);
    const [sub] = await h.database.db.select().from(submissions).where(eq(submissions.id, registration));
    expect(sub).toMatchObject({ status: 'accepted', error: null });
    expect(Object.keys(sub!.accessions?.samples ?? {})).toHaveLength(n);
  }, 300_000);

  it('stops only the samples of the document ENA refused, with its message; the others are registered', async () => {
    const n = SAMPLES_PER_DOCUMENT + 1;
    const { ids, registration } = await accepted(n);
    const spoiled = ids[0]!;
    const real = realClient();
    // the document holding this sample reaches ENA with a taxon it does not take: it is refused whole
    const client: EnaClient = {
      ...real,
      submit: (doc, init) =>
        real.submit(
          typeof doc === 'string' || !doc.samples?.some((s) => s.alias === spoiled)
            ? doc
            : { ...doc, samples: doc.samples.map((s) => (s.alias === spoiled ? { ...s, taxonId: '32644' } : s)) },
          init,
        ),
    };
    const before = server.ena.submissions.length;
    await run(registration, client);

    const docs = addsNaming(before, new Set(ids));
    const refusedDoc = docs.find((d) => d.objects.some((o) => o.alias === spoiled));
    expect(refusedDoc?.success).toBe(false);
    const refusedIds = new Set(refusedDoc!.objects.map((o) => o.alias));
    const rows = await h.database.db.select().from(samples).where(inArray(samples.id, ids));
    for (const r of rows) {
      if (refusedIds.has(r.id)) {
        expect(r.status).not.toBe('accepted');
        expect(r.biosampleAccession).toBeNull();
      } else {
        expect(r.status).toBe('accepted');
        expect(r.biosampleAccession).toMatch(/^SAMEA\d+$/);
      }
    }
    // the other document was applied, once
    expect(docs.filter((d) => d.success).flatMap((d) => d.objects.map((o) => o.alias))).toHaveLength(n - refusedIds.size);
    const [sub] = await h.database.db.select().from(submissions).where(eq(submissions.id, registration));
    expect(sub!.status).toBe('rejected');
    expect(sub!.error).toContain(`ENA refused ${refusedIds.size} of ${n} samples`);
    expect(sub!.error).toContain('32644');
  }, 300_000);
});

describe('the Webin stand-in’s delay', () => {
  it('answers each Webin call once the delay has passed', async () => {
    const slow = await startRepositoryServer({ webinDelayMs: 300 });
    try {
      const timed = async (url: string) => {
        const started = Date.now();
        await (await fetch(url)).arrayBuffer();
        return Date.now() - started;
      };
      expect(await timed(`${slow.enaUrl}/report/checklists/xml/*?type=sample`)).toBeGreaterThanOrEqual(290);
      expect(slow.requests.at(-1)).toMatchObject({ service: 'ena', status: 200 });
    } finally {
      await slow.close();
    }
  });
});
