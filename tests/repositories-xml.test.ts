import fc from 'fast-check';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import {
  buildExperimentXml,
  buildProjectXml,
  buildRunXml,
  buildSampleXml,
  buildSubmissionXml,
  buildWebinXml,
  classifyMessage,
  enaMappingFromFields,
  enaTitleCase,
  parseReceipt,
  roundCoordinate,
  type SampleSpec,
  specimenFields,
  tolSampleAttributes,
  tolSampleSpec,
} from '@/lib/repositories/ena';
import { xmlAttr, xmlText } from '@/lib/repositories/ena/xml';
import { RepositoryProtocolError } from '@/lib/repositories/errors';
import { DTOL_ENA_MAPPING, dtolRow } from './support/repository-server/fixtures';

// an exact reader: nothing trimmed, nothing converted
const exact = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  isArray: (name) => ['SAMPLE', 'SAMPLE_ATTRIBUTE', 'ACTION', 'PROJECT'].includes(name),
});

type Tree = Record<string, unknown>;
const at = (tree: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Tree)[key as string] : undefined), tree);
const textAt = (tree: unknown, ...path: (string | number)[]): string => {
  const v = at(tree, ...path);
  return typeof v === 'string' ? v : String(at(v, '#text') ?? '');
};

describe('ENA XML builders', () => {
  it('builds a SUBMISSION with every action form', () => {
    const xml = buildSubmissionXml({
      centerName: 'EI',
      brokerName: 'RMB',
      actions: [
        { type: 'ADD' },
        { type: 'VALIDATE' },
        { type: 'HOLD', holdUntilDate: '2030-01-31' },
        { type: 'HOLD', target: 'PRJEB1', holdUntilDate: '2030-02-01' },
        { type: 'RELEASE', target: 'PRJEB1' },
        { type: 'RELEASE' },
        { type: 'MODIFY' },
        { type: 'CANCEL', target: 'ERS1' },
        { type: 'RECEIPT', target: 'alias-1' },
      ],
      contacts: [{ name: 'Broker support', informOnError: 'a@b.org' }],
    });
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<SUBMISSION center_name="EI" broker_name="RMB">');
    expect(xml).toContain('<CONTACT name="Broker support" inform_on_error="a@b.org"/>');
    for (const piece of [
      '<ADD/>',
      '<VALIDATE/>',
      '<HOLD HoldUntilDate="2030-01-31"/>',
      '<HOLD target="PRJEB1" HoldUntilDate="2030-02-01"/>',
      '<RELEASE target="PRJEB1"/>',
      '<RELEASE/>',
      '<MODIFY/>',
      '<CANCEL target="ERS1"/>',
      '<RECEIPT target="alias-1"/>',
    ])
      expect(xml).toContain(piece);
    expect(() => buildSubmissionXml({ actions: [{ type: 'HOLD', holdUntilDate: '31/01/2030' }] })).toThrow(/YYYY-MM-DD/);
    expect(() => buildSubmissionXml({ actions: [] })).toThrow(/at least one action/);
  });

  it('builds a PROJECT in the XSD order, umbrella or sequencing', () => {
    const xml = buildProjectXml(
      [
        {
          alias: 'p1',
          name: 'atlas',
          title: 'Atlas of the wings of Aglais io',
          description: 'Single-cell atlas of developing wings',
          locusTagPrefixes: ['ABC'],
          links: [{ xref: { db: 'PUBMED', id: '25035323' } }, { url: { label: 'site', url: 'https://x.org/?a=1&b=2' } }],
          attributes: [{ tag: 'k', value: 'v' }],
        },
        { alias: 'u1', title: 'Umbrella of the wing atlas studies', umbrella: true },
      ],
      { centerName: 'EI' },
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = exact.parse(xml) as Tree;
    const p = at(doc, 'PROJECT_SET', 'PROJECT', 0) as Tree;
    expect(Object.keys(p).filter((k) => !k.startsWith('@_') && k !== '#text')).toEqual([
      'NAME',
      'TITLE',
      'DESCRIPTION',
      'SUBMISSION_PROJECT',
      'PROJECT_LINKS',
      'PROJECT_ATTRIBUTES',
    ]);
    expect(textAt(p, 'SUBMISSION_PROJECT', 'SEQUENCING_PROJECT', 'LOCUS_TAG_PREFIX')).toBe('ABC');
    expect(xml).toContain('<URL>https://x.org/?a=1&amp;b=2</URL>');
    expect(xml).toContain('<UMBRELLA_PROJECT/>');
    expect(at(doc, 'PROJECT_SET', 'PROJECT', 1, '@_center_name')).toBe('EI');
    expect(() => buildProjectXml([{ alias: 'x', title: ' ' }])).toThrow(/needs a title/);
  });

  it('builds SAMPLE, EXPERIMENT and RUN', () => {
    const sample = buildSampleXml([
      { alias: 's1', taxonId: '9606', scientificName: 'Homo sapiens', title: 'T', attributes: [{ tag: 'lat', value: '1', units: 'DD' }] },
    ]);
    expect(sample).toContain('<TAXON_ID>9606</TAXON_ID>');
    expect(sample).toContain('<UNITS>DD</UNITS>');
    expect(() => buildSampleXml([{ alias: 's', taxonId: 'human', attributes: [] }])).toThrow(/numeric TAXON_ID/);

    const exp = buildExperimentXml([
      {
        alias: 'e1',
        study: { accession: 'PRJEB1' },
        sample: { accession: 'SAMEA1' },
        libraryStrategy: 'RNA-Seq',
        librarySource: 'TRANSCRIPTOMIC',
        librarySelection: 'cDNA',
        libraryLayout: { type: 'PAIRED', nominalLength: 300, nominalSdev: 20 },
        platform: 'oxford nanopore',
        instrumentModel: 'MinION',
      },
    ]);
    expect(XMLValidator.validate(exp)).toBe(true);
    expect(exp).toContain('<STUDY_REF accession="PRJEB1"/>');
    expect(exp).toContain('<PAIRED NOMINAL_LENGTH="300" NOMINAL_SDEV="20"/>');
    expect(exp).toContain('<OXFORD_NANOPORE>');
    expect(exp).toContain('<DESIGN_DESCRIPTION/>');

    const run = buildRunXml([
      { alias: 'r1', experiment: { refname: 'e1' }, files: [{ filename: 'a.fq', filetype: 'fastq', checksum: 'abc' }] },
    ]);
    expect(run).toContain('<EXPERIMENT_REF refname="e1"/>');
    expect(run).toContain('<FILE filename="a.fq" filetype="fastq" checksum_method="MD5" checksum="abc"/>');
    expect(() => buildRunXml([{ alias: 'r', experiment: { refname: 'e' }, files: [] }])).toThrow(/at least one file/);
  });

  it('builds one WEBIN document with only the sets it needs', () => {
    const xml = buildWebinXml(
      { submission: { actions: [{ type: 'ADD' }] }, samples: [{ alias: 's', taxonId: '9606', attributes: [] }] },
      { centerName: 'EI' },
    );
    const doc = exact.parse(xml) as Tree;
    expect(Object.keys(at(doc, 'WEBIN') as Tree).filter((k) => k !== '#text')).toEqual(['SUBMISSION_SET', 'SAMPLE_SET']);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
  });
});

describe('Tree of Life sample attributes (docs/tol-manifests.md §3.3)', () => {
  const attrs = tolSampleAttributes(dtolRow(), DTOL_ENA_MAPPING);
  const values = (tag: string) => attrs.filter((a) => a.tag === tag).map((a) => a.value);
  const one = (tag: string) => attrs.find((a) => a.tag === tag);

  it('applies the value rules', () => {
    expect(values('lifestage')).toEqual(['adult']);
    expect(values('habitat')).toEqual(['Woodland edge']);
    expect(values('identified_by')).toEqual(['John Smith']);
    expect(values('GAL')).toEqual(['Earlham Institute']);
    expect(values('geographic location (country and/or sea)')).toEqual(['United Kingdom']);
    expect(values('geographic location (region and locality)')).toEqual(['Norfolk | Norwich Research Park']);
    expect(values('collection date')).toEqual(['2023-05-01T10:30']);
    expect(one('geographic location (latitude)')).toEqual({ tag: 'geographic location (latitude)', value: '52.62181235', units: 'DD' });
    expect(one('geographic location (longitude)')).toEqual({ tag: 'geographic location (longitude)', value: '1.2193', units: 'DD' });
    expect(one('geographic location (elevation)')).toEqual({ tag: 'geographic location (elevation)', value: '12', units: 'm' });
    expect(values('geographic location (depth)')).toEqual([]);
    // identifiers and links keep underscores; `|` lists become repeated attributes
    expect(values('specimen_id')).toEqual(['EI_00123']);
    expect(values('GAL_sample_id')).toEqual(['EI_GAL_0001']);
    expect(values('specimen_voucher')).toEqual(['NHMUK_010101', 'NHMUK_010102']);
    expect(values('specimen voucher url')).toEqual(['https://data.nhm.ac.uk/object/a_b']);
    // biobanking NOT_* values are left out; INSDC missing-value terms are lower case
    expect(values('bio_material')).toEqual([]);
    expect(values('barcoding center')).toEqual(['not applicable']);
    // TAXON_ID / SCIENTIFIC_NAME go to SAMPLE_NAME; fields without an ENA name are not sent
    expect(attrs.some((a) => a.tag === 'TAXON_ID' || a.tag === 'SCIENTIFIC_NAME' || a.value.includes('not sent'))).toBe(false);
  });

  it('handles the special cases', () => {
    const special = tolSampleAttributes(
      dtolRow({
        LIFESTAGE: 'SPORE_BEARING_STRUCTURE',
        DECIMAL_LATITUDE: 'NOT_COLLECTED',
        DECIMAL_LONGITUDE: 'NOT_PROVIDED',
        DATE_OF_COLLECTION: 'NOT_COLLECTED',
        GAL: 'UNIVERSITY OF OXFORD',
        COLLECTION_LOCATION: 'Atlantic Ocean',
        TISSUE_VOUCHER_ID_FOR_BIOBANKING: 'BIO_1 | NOT_PROVIDED | BIO_2',
      }),
      DTOL_ENA_MAPPING,
    );
    const v = (tag: string) => special.filter((a) => a.tag === tag).map((a) => a.value);
    expect(v('lifestage')).toEqual(['spore-bearing structure']);
    expect(v('geographic location (latitude)')).toEqual([]);
    expect(v('geographic location (longitude)')).toEqual(['not provided']);
    expect(v('collection date')).toEqual(['not collected']);
    expect(v('GAL')).toEqual(['University of Oxford']);
    expect(v('geographic location (country and/or sea)')).toEqual(['Atlantic Ocean']);
    expect(v('geographic location (region and locality)')).toEqual([]);
    expect(v('bio_material')).toEqual(['BIO_1', 'BIO_2']);
    expect(
      tolSampleAttributes({ GAL: 'NOT_PROVIDED', DATE_OF_COLLECTION: '2023-05', TIME_OF_COLLECTION: '10:30' }, DTOL_ENA_MAPPING),
    ).toEqual([{ tag: 'collection date', value: '2023-05' }]);
  });

  it('builds the whole sample: checklist, project, tolid and relationships', () => {
    const spec = tolSampleSpec(
      {
        alias: 'abc',
        project: 'asg',
        fields: dtolRow(),
        tolid: 'ilAglIo1',
        sampleDerivedFrom: 'SAMEA1',
        sampleSymbiontOf: ' SAMEA2 ',
        symbiont: true,
      },
      DTOL_ENA_MAPPING,
    );
    expect(spec).toMatchObject({ alias: 'abc', title: 'abc-asg', taxonId: '171585', scientificName: 'Aglais io' });
    expect(spec.attributes.slice(0, 3)).toEqual([
      { tag: 'ENA-CHECKLIST', value: 'ERC000053' },
      { tag: 'project name', value: 'ASG' },
      { tag: 'SYMBIONT', value: 'Y' },
    ]);
    expect(spec.attributes.slice(-3)).toEqual([
      { tag: 'tolid', value: 'ilAglIo1' },
      { tag: 'sample derived from', value: 'SAMEA1' },
      { tag: 'sample symbiont of', value: 'SAMEA2' },
    ]);
    expect(specimenFields({ ORGANISM_PART: 'THORAX', GAL_SAMPLE_ID: 'X' })).toEqual({
      ORGANISM_PART: 'WHOLE_ORGANISM',
      GAL_SAMPLE_ID: 'NOT_PROVIDED',
    });
  });

  it('takes its mapping from manifest field definitions', () => {
    expect(
      enaMappingFromFields([
        { name: 'DECIMAL_LATITUDE', unit: 'DD', standards: { ena: 'geographic location (latitude)' } },
        { name: 'SERIES', unit: null, standards: { ena: null } },
        { name: 'SEX', standards: { ena: 'sex' } },
      ]),
    ).toEqual({ DECIMAL_LATITUDE: { enaName: 'geographic location (latitude)', unit: 'DD' }, SEX: { enaName: 'sex' } });
  });

  it('title-cases upper-case names the way ENA spells them', () => {
    expect(enaTitleCase('ROYAL BOTANIC GARDENS KEW/NATURAL HISTORY MUSEUM')).toBe('Royal Botanic Gardens Kew/Natural History Museum');
    expect(enaTitleCase('Centro Nacional de Análisis Genómico')).toBe('Centro Nacional de Análisis Genómico');
  });
});

describe('RECEIPT parsing', () => {
  // the example of enasequence/read_docs programmatic-v2.rst
  const documented = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="receipt.xsl"?>
<RECEIPT receiptDate="2022-07-27T09:54:37.869+01:00" submissionFile="submission-EMBL-EBI_1658912077869.xml" success="true">
     <EXPERIMENT accession="ERX9535365" alias="illumina-hiSeq" status="PRIVATE"/>
     <RUN accession="ERR9994219" alias="paired-data" status="PRIVATE"/>
     <SAMPLE accession="ERS12520704" alias="gut-microbiota" status="PRIVATE" holdUntilDate="2024-07-12+01:00">
          <EXT_ID accession="SAMEA110422334" type="biosample"/>
     </SAMPLE>
     <PROJECT accession="PRJEB55033" alias="comparative-analysis" status="PRIVATE" holdUntilDate="2024-07-12+01:00">
          <EXT_ID accession="ERP139895" type="study"/>
     </PROJECT>
     <SUBMISSION accession="ERA16500666" alias="SUBMISSION-27-07-2022-09:54:36:278"/>
     <MESSAGES>
          <INFO>All objects in this submission are set to private status (HOLD).</INFO>
     </MESSAGES>
     <ACTIONS>ADD</ACTIONS>
     <ACTIONS>HOLD</ACTIONS>
</RECEIPT>`;

  it('reads the documented receipt', () => {
    const r = parseReceipt(documented);
    expect(r).toMatchObject({
      success: true,
      outcome: 'accepted',
      test: false,
      actions: ['ADD', 'HOLD'],
      receiptDate: '2022-07-27T09:54:37.869+01:00',
    });
    expect(r.byAlias.SAMPLE['gut-microbiota']).toEqual({
      type: 'SAMPLE',
      alias: 'gut-microbiota',
      accession: 'ERS12520704',
      status: 'PRIVATE',
      holdUntilDate: '2024-07-12+01:00',
      extIds: [{ accession: 'SAMEA110422334', type: 'biosample' }],
      biosampleAccession: 'SAMEA110422334',
    });
    expect(r.byAlias.PROJECT['comparative-analysis']).toMatchObject({ accession: 'PRJEB55033', studyAccession: 'ERP139895' });
    expect(r.byAlias.EXPERIMENT['illumina-hiSeq']?.accession).toBe('ERX9535365');
    expect(r.byAlias.RUN['paired-data']?.accession).toBe('ERR9994219');
    expect(r.submission?.accession).toBe('ERA16500666');
    expect(r.objects.map((o) => o.type)).toEqual(['PROJECT', 'SAMPLE', 'EXPERIMENT', 'RUN']);
  });

  it('decides success from the attribute only', () => {
    const r = parseReceipt(
      '<RECEIPT success="false"><SAMPLE accession="ERS1" alias="a"/><MESSAGES><ERROR>boom</ERROR></MESSAGES></RECEIPT>',
    );
    expect(r).toMatchObject({ success: false, outcome: 'rejected', errors: ['boom'] });
  });

  it('recognises "already exists" in the old and the new wording, and mixed failures', () => {
    const newer = classifyMessage(
      'ERROR',
      'In experiment, alias: "ENA Experiment - uvzsr-PT_24_00014-A12". The object being added already exists in the submission account with accession: "ERX12811976".',
    );
    expect(newer).toMatchObject({
      kind: 'alias_exists',
      objectType: 'EXPERIMENT',
      alias: 'ENA Experiment - uvzsr-PT_24_00014-A12',
      accession: 'ERX12811976',
    });
    const older = classifyMessage(
      'ERROR',
      'In submission, alias:"Submission alias run 1", accession:"". The object being added already exists in the submission account.',
    );
    expect(older).toMatchObject({ kind: 'alias_exists', objectType: 'SUBMISSION', alias: 'Submission alias run 1' });
    expect(older.accession).toBeUndefined();

    const mixed = parseReceipt(
      `<RECEIPT success="false"><MESSAGES><ERROR>${newer.text.replace(/"/g, '&quot;')}</ERROR><ERROR>Missing mandatory field "sex".</ERROR></MESSAGES></RECEIPT>`,
    );
    expect(mixed.outcome).toBe('rejected');
    expect(mixed.existing).toEqual([{ type: 'EXPERIMENT', alias: 'ENA Experiment - uvzsr-PT_24_00014-A12', accession: 'ERX12811976' }]);
    expect(mixed.messages[1]).toMatchObject({ kind: 'checklist', attribute: 'sex' });
  });

  it('reads checklist errors in both wordings', () => {
    expect(classifyMessage('ERROR', "Sample: s1; Reason: must have required property 'collection date'")).toMatchObject({
      kind: 'checklist',
      sample: 's1',
      reason: "must have required property 'collection date'",
    });
    expect(
      classifyMessage('ERROR', 'Error at s2. Invalid units "km" for field "geographic location (depth)". Allowed units are "m"'),
    ).toMatchObject({
      kind: 'checklist',
      sample: 's2',
      attribute: 'geographic location (depth)',
    });
    expect(classifyMessage('INFO', 'Submission has been rolled back.').kind).toBe('other');
  });

  it('refuses what is not a receipt', () => {
    expect(() => parseReceipt('<html><body>Service unavailable</body></html>')).toThrow(RepositoryProtocolError);
    expect(() => parseReceipt('{"error":1}')).toThrow(RepositoryProtocolError);
    expect(() => parseReceipt('<RECEIPT><MESSAGES/></RECEIPT>')).toThrow(/no success attribute/);
  });
});

describe('XML properties', () => {
  // every UTF-16 code unit, lone surrogates and control characters included
  const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
  const nonBlank = anyText.filter((s) => xmlText(s).trim() !== '' && xmlAttr(s).trim() !== '');

  it('a sample always parses back to its values, escaped and cleaned', () => {
    fc.assert(
      fc.property(
        nonBlank,
        anyText,
        fc.array(fc.tuple(nonBlank, anyText, fc.option(nonBlank, { nil: undefined })), { maxLength: 5 }),
        (alias, title, pairs) => {
          const spec: SampleSpec = {
            alias,
            title: title || undefined,
            taxonId: '9606',
            attributes: pairs.map(([tag, value, units]) => ({ tag, value, ...(units === undefined ? {} : { units }) })),
          };
          const xml = buildWebinXml({
            submission: { alias, actions: [{ type: 'ADD' }, { type: 'RECEIPT', target: alias }] },
            samples: [spec],
          });
          expect(XMLValidator.validate(xml)).toBe(true);
          const doc = exact.parse(xml) as Tree;
          const s = at(doc, 'WEBIN', 'SAMPLE_SET', 'SAMPLE', 0);
          expect(at(s, '@_alias')).toBe(xmlAttr(alias));
          expect(at(doc, 'WEBIN', 'SUBMISSION_SET', 'SUBMISSION', '@_alias')).toBe(xmlAttr(alias));
          expect(at(doc, 'WEBIN', 'SUBMISSION_SET', 'SUBMISSION', 'ACTIONS', 'ACTION', 1, 'RECEIPT', '@_target')).toBe(xmlAttr(alias));
          if (title) expect(textAt(s, 'TITLE')).toBe(xmlText(title));
          const got = (at(s, 'SAMPLE_ATTRIBUTES', 'SAMPLE_ATTRIBUTE') as unknown[] | undefined) ?? [];
          expect(got.map((a) => [textAt(a, 'TAG'), textAt(a, 'VALUE')])).toEqual(pairs.map(([t, v]) => [xmlText(t), xmlText(v)]));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('markup in values is escaped, never interpreted', () => {
    const markup = fc.constantFrom('<', '>', '&', '"', "'", ']]>', '<!--', '&amp;', '<VALUE>', 'true', 'false', '\r\n', '\t');
    const value = fc.array(fc.oneof(markup, fc.string({ maxLength: 5 })), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(value, value, (alias, v) => {
        const title = `A study with the title t${v}`;
        const xml = buildProjectXml([{ alias: `a${alias}`, title, attributes: [{ tag: 'k', value: v }] }]);
        expect(XMLValidator.validate(xml)).toBe(true);
        const p = at(exact.parse(xml), 'PROJECT_SET', 'PROJECT', 0);
        expect(at(p, '@_alias')).toBe(xmlAttr(`a${alias}`));
        expect(textAt(p, 'TITLE')).toBe(xmlText(title));
        expect(textAt(p, 'PROJECT_ATTRIBUTES', 'PROJECT_ATTRIBUTE', 'VALUE')).toBe(xmlText(v));
      }),
      { numRuns: 300 },
    );
  });

  it('ToL samples from any manifest values are valid XML with well-formed coordinates', () => {
    const fieldValue = fc.oneof(anyText, fc.constantFrom('NOT_COLLECTED', 'NOT_PROVIDED', 'a|b|c', ' | ', '1e3', '-0.000000001'));
    const row = fc.record(Object.fromEntries(Object.keys(dtolRow()).map((k) => [k, fieldValue])) as Record<string, fc.Arbitrary<string>>);
    fc.assert(
      fc.property(row, (fields) => {
        const attrs = tolSampleAttributes(fields, DTOL_ENA_MAPPING);
        const xml = buildSampleXml([{ alias: 'x', taxonId: '9606', attributes: attrs }]);
        expect(XMLValidator.validate(xml)).toBe(true);
        for (const a of attrs) {
          expect(a.value.trim()).not.toBe('');
          // a coordinate that is a number is written plainly with at most 8 decimals
          if (/latitude|longitude/.test(a.tag) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(a.value))
            expect(a.value).toMatch(/^-?\d+(\.\d{1,8})?$/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('leaves out a field whose written value is blank: a cell of underscores, which become spaces', () => {
    // found by the property above: IDENTIFIER_AFFILIATION "_" was sent as a blank VALUE
    const { IDENTIFIER_AFFILIATION: _i, GAL: _g, DATE_OF_COLLECTION: _d, ...others } = dtolRow();
    const attrs = tolSampleAttributes({ ...others, IDENTIFIER_AFFILIATION: '_', GAL: '__', DATE_OF_COLLECTION: ' _ ' }, DTOL_ENA_MAPPING);
    expect(attrs).toEqual(tolSampleAttributes(others, DTOL_ENA_MAPPING));
  });

  it('coordinates round to at most 8 decimals without exponent', () => {
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), (x) => {
        const s = roundCoordinate(String(x));
        expect(s).toMatch(/^-?\d+(\.\d{1,8})?$/);
        expect(Math.abs(Number(s) - x)).toBeLessThanOrEqual(5e-9 + Number.EPSILON * 200);
      }),
    );
    expect(roundCoordinate('52.621812345678')).toBe('52.62181235');
    expect(roundCoordinate('-0.000000001')).toBe('0');
    expect(roundCoordinate('10.50')).toBe('10.5');
    expect(roundCoordinate('100')).toBe('100');
    expect(roundCoordinate('NOT_COLLECTED')).toBeUndefined();
  });

  it('receipts built with any aliases and messages parse back', () => {
    fc.assert(
      fc.property(fc.array(nonBlank, { minLength: 1, maxLength: 4 }), fc.array(nonBlank, { maxLength: 3 }), (aliases, errors) => {
        const unique = [...new Set(aliases.map(xmlAttr))];
        const xml = buildXmlReceipt(unique, errors.map(xmlText));
        const r = parseReceipt(xml);
        expect(Object.keys(r.byAlias.SAMPLE).sort()).toEqual([...unique].sort());
        expect(r.errors).toEqual(errors.map((e) => xmlText(e).trim()));
      }),
      { numRuns: 200 },
    );
  });
});

// receipts as ENA writes them: attributes on object elements, one element per message
const receiptBuilder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', suppressBooleanAttributes: false });
function buildXmlReceipt(aliases: string[], errors: string[]): string {
  return receiptBuilder.build({
    RECEIPT: {
      '@_success': errors.length ? 'false' : 'true',
      SAMPLE: aliases.map((a, i) => ({ '@_alias': a, '@_accession': `ERS${i}` })),
      MESSAGES: { ERROR: errors },
    },
  }) as string;
}
