import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submissions } from '@/db/schema';
import { bytesOf, createProfile, definition, studiesApi } from './fixtures/studies/api';
import { md5Of, withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { type S3Server, startS3Server } from './support/s3-server';

/** The study journey with the data files in S3 (s3rver): reads staged to ENA's upload area and files deposited at Zenodo from the bucket. */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';
const SAMPLE = { accession: 'SAMEA7524530', taxonId: '9606', scientificName: 'Homo sapiens' };
let s3: S3Server;
let server: RepositoryServer;
let h: Harness;

beforeAll(async () => {
  [s3, server] = await Promise.all([startS3Server(), startRepositoryServer()]);
  h = await createHarness(
    {
      ...s3.env,
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
      ENA_BROWSER_URL: server.browserUrl,
      ENA_FTP_URL: server.ftpUrl,
      ZENODO_URL: server.zenodoUrl,
      ZENODO_TOKEN: server.credentials.zenodo.token,
    },
    { workers: true },
  );
}, 120_000);
afterAll(async () => {
  await h.close();
  await Promise.all([server.close(), s3.close()]);
});

describe('a single-cell study whose files are in S3', () => {
  it('goes to ENA with its reads staged from the bucket, and to Zenodo with its files', async () => {
    const { key } = await h.user();
    const profileId = await createProfile(h, key, 'Objects in S3');
    const api = studiesApi(h, key, profileId);
    const def = await definition(h, SCHEMA, CHECKLIST);
    const base = fixtureComponents(def, { studyId: 'S3READS', samples: [SAMPLE] });
    for (const r of base.sequencing!) Object.assign(r, { sequencing_instrument_model: 'Illumina NovaSeq 6000', lib_layout: 'Paired' });
    const { components, files } = await withDataFiles(h, key, profileId, def, base);
    const tpl = await bytesOf(await api.template(SCHEMA, CHECKLIST));
    const up = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(tpl, def, components)));
    expect(up.status, await up.clone().text()).toBe(200);

    for (const repository of ['ena', 'zenodo']) {
      const res = await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/S3READS/action/submit?repository=${repository}`, {
        method: 'POST',
        key,
      });
      expect(res.status, await res.clone().text()).toBe(202);
      const { submission_id } = (await res.json()) as { submission_id: string };
      const [done] = await waitFor(
        () => h.database.db.select().from(submissions).where(eq(submissions.id, submission_id)),
        (rows) => rows[0]!.status === 'accepted' || rows[0]!.status === 'rejected',
        `the ${repository} submission`,
      );
      expect(done!.status, done!.error ?? '').toBe('accepted');
    }
    for (const [name, bytes] of files) {
      if (/_read_[12]_file_/.test(name)) {
        expect((await server.uploadArea.fileOf(server.credentials.ena.username, `${profileId}/${name}`))?.md5, name).toBe(md5Of(bytes));
      }
    }
    const deposition = [...server.zenodo.depositions.values()].at(-1)!;
    for (const [name, bytes] of files) expect(deposition.files.get(name)?.checksum, name).toBe(md5Of(bytes));
  });
});
