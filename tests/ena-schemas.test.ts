import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@/lib/logger';
import { currentDefinition, type ManifestProject } from '@/lib/manifests';
import {
  buildProjectXml,
  buildWebinXml,
  createEnaClient,
  enaMappingFromFields,
  type SampleSpec,
  type SubmissionAction,
  specimenFields,
  tolSampleSpec,
} from '@/lib/repositories/ena';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords } from './fixtures/manifests/taxa';
import { enaSchemaErrors } from './support/ena-schemas';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * Every document the broker sends to ENA is valid by ENA's own XML Schemas (tests/fixtures/ena-xsd, run by libxml2):
 * Tree of Life samples and specimens of each project with every action the code uses, and studies' projects. The
 * Webin stand-in of every other test validates what it receives the same way, and refuses an invalid document as
 * Webin does (checked last).
 */

const PROJECTS: ManifestProject[] = ['dtol', 'asg', 'erga', 'dtolenv'];

/** A manifest's first rows as the registration job sends them: each target's specimen, then the samples linked to it. */
function tolSpecs(project: ManifestProject): { specimens: SampleSpec[]; samples: SampleSpec[] } {
  const definition = currentDefinition(project);
  const mapping = enaMappingFromFields(definition.fields);
  const rows = validRows(definition, 3);
  const upper = project.toUpperCase();
  const specimens = rows.map((fields, i) =>
    tolSampleSpec(
      {
        alias: `specimen-${project}-${i}`,
        project: upper,
        fields: specimenFields(fields),
        title: `specimen-${project}-${i}-${upper}-specimen`,
        tolid: `ilAglIoxx${i + 1}`,
        extraAttributes: project === 'erga' ? [{ tag: 'sampling permits filename', value: `permit-${i}.pdf` }] : [],
      },
      mapping,
    ),
  );
  const samples = rows.map((fields, i) =>
    tolSampleSpec(
      {
        alias: `sample-${project}-${i}`,
        project: upper,
        fields,
        title: `sample-${project}-${i}-${upper}`,
        tolid: `ilAglIoxx${i + 1}`,
        symbiont: project === 'asg' ? i === 2 : undefined,
        ...(i === 0
          ? { sampleSameAs: 'SAMEA100001' }
          : i === 1
            ? { sampleDerivedFrom: 'SAMEA100002' }
            : { sampleSymbiontOf: 'SAMEA100003' }),
      },
      mapping,
    ),
  );
  return { specimens, samples };
}

const ACTION_SETS: { name: string; actions: SubmissionAction[] }[] = [
  { name: 'ADD + RELEASE', actions: [{ type: 'ADD' }, { type: 'RELEASE' }] },
  { name: 'MODIFY', actions: [{ type: 'MODIFY' }] },
  { name: 'ADD + HOLD', actions: [{ type: 'ADD' }, { type: 'HOLD', holdUntilDate: '2027-06-30' }] },
  { name: 'VALIDATE', actions: [{ type: 'ADD' }, { type: 'VALIDATE' }] },
];

describe("ENA's XML Schemas", () => {
  for (const project of PROJECTS) {
    for (const { name, actions } of ACTION_SETS) {
      it(`${project.toUpperCase()} specimens and samples with ${name}`, async () => {
        const { specimens, samples } = tolSpecs(project);
        for (const set of [specimens, samples]) {
          const xml = buildWebinXml({ submission: { actions }, samples: set }, { centerName: 'EI', brokerName: 'RMB' });
          expect(await enaSchemaErrors(xml)).toEqual([]);
        }
      });
    }
  }

  it('submissions that act on what ENA holds: RELEASE, HOLD, RECEIPT, CANCEL', async () => {
    for (const actions of [
      [{ type: 'RELEASE', target: 'PRJEB70001' }],
      [{ type: 'HOLD', target: 'PRJEB70001', holdUntilDate: '2027-06-30' }],
      [{ type: 'RECEIPT', target: 'aaaaaaaaaaaaaaaaaaaaaaaa' }],
      [{ type: 'CANCEL', target: 'ERS70001' }],
    ] satisfies SubmissionAction[][]) {
      expect(await enaSchemaErrors(buildWebinXml({ submission: { actions } }, { centerName: 'EI', brokerName: 'RMB' }))).toEqual([]);
    }
  });

  it("a study's project, sequencing or umbrella", async () => {
    const base = {
      alias: 'profile:study-1',
      title: 'Single-cell atlas of the wings of Aglais io',
      description: 'Single-cell RNA sequencing of developing wing discs',
    };
    expect(await enaSchemaErrors(buildProjectXml([base, { ...base, alias: 'umbrella-1', umbrella: true }]))).toEqual([]);
  });

  it('finds what ENA would refuse: a missing element, a misplaced one, a value out of its range', async () => {
    const noTaxon = '<SAMPLE_SET><SAMPLE alias="a"><TITLE>x</TITLE><SAMPLE_NAME/></SAMPLE></SAMPLE_SET>';
    expect((await enaSchemaErrors(noTaxon)).join(' ')).toMatch(/TAXON_ID/);
    const misplaced =
      '<SAMPLE_SET><SAMPLE alias="a"><SAMPLE_NAME><TAXON_ID>9606</TAXON_ID></SAMPLE_NAME><TITLE>x</TITLE></SAMPLE></SAMPLE_SET>';
    expect(await enaSchemaErrors(misplaced)).not.toEqual([]);
    const shortTitle = buildProjectXml([
      { alias: 'p', title: 'A long enough title here', description: 'A long enough description' },
    ]).replace('A long enough title here', 'Short');
    expect((await enaSchemaErrors(shortTitle)).join(' ')).toMatch(/minLength|length/);
  });

  it('the project builder refuses a title ENA would refuse, saying why', () => {
    expect(() => buildProjectXml([{ alias: 'p', title: 'Too short', description: 'A long enough description' }])).toThrow(
      /title of 20 to 250 characters/,
    );
  });
});

describe('the Webin stand-in refuses what does not validate, as Webin does', () => {
  let server: RepositoryServer;
  beforeAll(async () => {
    server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers a failed receipt naming the schema error, and keeps nothing', async () => {
    const ena = createEnaClient({
      baseUrl: server.enaUrl,
      username: server.credentials.ena.username,
      password: server.credentials.ena.password,
      logger: createLogger('silent'),
    });
    const invalid =
      '<?xml version="1.0" encoding="UTF-8"?><WEBIN><SUBMISSION_SET><SUBMISSION><ACTIONS><ACTION><ADD/></ACTION></ACTIONS></SUBMISSION></SUBMISSION_SET>' +
      '<SAMPLE_SET><SAMPLE alias="no-taxon"><TITLE>no taxon</TITLE><SAMPLE_NAME><SCIENTIFIC_NAME>Aglais io</SCIENTIFIC_NAME></SAMPLE_NAME></SAMPLE></SAMPLE_SET></WEBIN>';
    const receipt = await ena.submit(invalid);
    expect(receipt.success).toBe(false);
    expect(receipt.errors.join(' ')).toMatch(/Invalid XML: SAMPLE_SET: .*TAXON_ID/);
    expect(server.ena.objects().some((o) => o.alias === 'no-taxon')).toBe(false);
  });
});
