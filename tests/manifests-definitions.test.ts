import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  currentDefinition,
  type FieldDefinition,
  findDefinition,
  loadManifestDefinitions,
  MANIFEST_PROJECTS,
  type ManifestProject,
} from '@/lib/manifests';
import { TEMPLATE_FILES, tolDataDir } from '@/lib/manifests/reference/source';

const field = (project: ManifestProject, name: string, version?: string): FieldDefinition => {
  const def = version ? findDefinition(project, version) : currentDefinition(project);
  const f = def?.fields.find((x) => x.name === name);
  if (!f) throw new Error(`${project} has no ${name}`);
  return f;
};
const names = (fields: FieldDefinition[]) => fields.map((f) => f.name).sort();

describe('manifest definitions', () => {
  it('offers every version named in the attribute files, newest first, with the current ones marked', () => {
    const versions = Object.fromEntries(
      MANIFEST_PROJECTS.map((p) => [
        p,
        loadManifestDefinitions()
          .filter((d) => d.project === p)
          .map((d) => `${d.version}${d.current ? '*' : ''}`),
      ]),
    );
    expect(versions).toEqual({
      asg: ['2.5*', '2.4.1'],
      dtol: ['2.5*', '2.4.1'],
      dtolenv: ['2.4*'],
      erga: ['2.5.1*', '2.5', '2.4.3', '2.4.2', '2.4.1'],
    });
    expect(loadManifestDefinitions()).toBe(loadManifestDefinitions());
  });

  it.each([
    ['dtol', 68, 48],
    ['asg', 68, 48],
    ['erga', 91, 60],
    ['dtolenv', 54, 32],
  ] as const)('%s has %i fields, %i of them required', (project, total, required) => {
    const def = currentDefinition(project);
    expect(def.fields).toHaveLength(total);
    expect(def.fields.filter((f) => f.required)).toHaveLength(required);
  });

  it('keeps older versions readable: ERGA 2.4.1 has 79 fields and no SYMBIONT, in contiguous columns', () => {
    const old = findDefinition('erga', '2.4.1');
    expect(old?.fields).toHaveLength(79);
    expect(old?.fields.some((f) => f.name === 'SYMBIONT')).toBe(false);
    expect(old?.fields.at(-1)?.column).toBe('CA');
    expect(findDefinition('dtol', '2.4.1')?.fields.some((f) => f.name === 'BOLD_ACCESSION_NUMBER')).toBe(false);
  });

  it.each(Object.entries(TEMPLATE_FILES))('orders %s fields as the official template’s columns', async (project, file) => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(path.join(tolDataDir(), file));
    const headers: string[] = [];
    workbook
      .getWorksheet('Metadata Entry')
      ?.getRow(1)
      .eachCell((c) => void headers.push(String(c.value).trim()));
    const def = currentDefinition(project as ManifestProject);
    expect(def.fields.map((f) => f.name)).toEqual(headers);
    expect(def.fields.map((f) => f.column).at(-1)).toBe(project === 'erga' ? 'CM' : 'BP');
  });

  it('marks the updatable (non-compliant) fields of docs/tol-manifests.md §4.3', () => {
    const updatable = (p: ManifestProject) => names(currentDefinition(p).fields.filter((f) => f.updatable));
    expect(updatable('dtol')).toEqual(
      [
        'BARCODE_HUB',
        'BARCODE_PLATE_PRESERVATIVE',
        'BOLD_ACCESSION_NUMBER',
        'COLLECTOR_SAMPLE_ID',
        'CULTURE_OR_STRAIN_ID',
        'DATE_OF_PRESERVATION',
        'DEPTH',
        'DIFFICULT_OR_HIGH_PRIORITY_SAMPLE',
        'ELEVATION',
        'GAL_SAMPLE_ID',
        'HAZARD_GROUP',
        'IDENTIFIED_BY',
        'IDENTIFIED_HOW',
        'IDENTIFIER_AFFILIATION',
        'INFRASPECIFIC_EPITHET',
        'LIFESTAGE',
        'PLATE_ID_FOR_BARCODING',
        'PRESERVED_BY',
        'PRESERVER_AFFILIATION',
        'PURPOSE_OF_SPECIMEN',
        'RELATIONSHIP',
        'SEX',
        'SIZE_OF_TISSUE_IN_TUBE',
        'SPECIMEN_IDENTITY_RISK',
        'TIME_ELAPSED_FROM_COLLECTION_TO_PRESERVATION',
        'TIME_OF_COLLECTION',
        'TISSUE_FOR_BARCODING',
        'TISSUE_REMOVED_FOR_BARCODING',
        'TUBE_OR_WELL_ID_FOR_BARCODING',
      ].sort(),
    );
    expect(updatable('asg')).toHaveLength(28);
    expect(updatable('asg')).toContain('PARTNER_SAMPLE_ID');
    expect(updatable('asg')).not.toContain('SPECIMEN_IDENTITY_RISK');
    expect(names(currentDefinition('erga').fields.filter((f) => !f.updatable))).toEqual(
      [
        'ASSOCIATED_PROJECT_ACCESSIONS',
        'COLLECTOR_ORCID_ID',
        'LATITUDE_END',
        'LATITUDE_START',
        'LONGITUDE_END',
        'LONGITUDE_START',
        'MIXED_SAMPLE_RISK',
        'ORIGINAL_DECIMAL_LATITUDE',
        'ORIGINAL_DECIMAL_LONGITUDE',
        'PRIMARY_BIOGENOME_PROJECT',
        'SAMPLING_PERMITS_DEF',
        'SPECIMEN_ID',
        'SYMBIONT',
        'TUBE_OR_WELL_ID',
      ].sort(),
    );
    expect(updatable('dtolenv')).toHaveLength(24);
  });

  it('keeps sensitive fields out of exports', () => {
    const hidden = names(currentDefinition('erga').fields.filter((f) => !f.export));
    expect(hidden).toEqual(['ASSOCIATED_TRADITIONAL_KNOWLEDGE_CONTACT', 'COLLECTOR_ORCID_ID', 'SAMPLE_COORDINATOR_ORCID_ID']);
    expect(
      currentDefinition('erga')
        .fields.filter((f) => f.sensitive)
        .map((f) => f.name)
        .sort(),
    ).toEqual(hidden);
    expect(currentDefinition('dtol').fields.every((f) => f.export)).toBe(true);
  });

  it('carries the standards names, with the ENA name of LATITUDE_START corrected (docs/tol-manifests.md §8.3)', () => {
    expect(field('dtol', 'DECIMAL_LATITUDE').standards).toEqual({
      tol: 'DECIMAL_LATITUDE',
      dwc: 'decimalLatitude',
      ena: 'geographic location (latitude)',
      mixs: 'lat_lon',
    });
    expect(field('dtol', 'RACK_OR_PLATE_ID').standards).toEqual({ tol: 'RACK_OR_PLATE_ID', dwc: null, ena: null, mixs: null });
    expect(field('erga', 'LATITUDE_START').standards.ena).toBe('Latitude Start');
    expect(field('asg', 'PARTNER').standards.ena).toBe('GAL');
  });

  it('uses the runtime vocabularies where the files are stale (docs/tol-manifests.md §1.4, §1.7, §1.9, §8)', () => {
    for (const p of MANIFEST_PROJECTS) expect(field(p, 'BARCODING_STATUS').allowedValues).toHaveLength(5);
    expect(field('asg', 'BARCODE_HUB').allowedValues).toContain('THE SAINSBURY LABORATORY');
    expect(field('asg', 'BARCODE_HUB').allowedValues).not.toContain('NATURAL HISTORY MUSEUM');
    expect(field('erga', 'TISSUE_FOR_BIOBANKING').allowedValues).not.toContain('DNA_EXTRACT');
    expect(field('erga', 'TISSUE_FOR_BIOBANKING').allowedValues).toHaveLength(73);
    expect(field('dtol', 'TISSUE_FOR_BARCODING').allowedValues).toHaveLength(74);
    expect(field('dtolenv', 'GAL').allowedValues).toContain('UNIVERSITY OF CAMBRIDGE');
    expect(field('dtol', 'LIFESTAGE').allowedValues).toContain('SPORE_BEARING_STRUCTURE');
    expect(field('erga', 'LIFESTAGE').allowedValues).toContain('spore-bearing structure');
    const tk = field('erga', 'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID');
    expect(tk.allowedValues).toBeNull();
    expect(new RegExp(tk.pattern ?? '', 'i').test('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe(true);
    const countries = field('dtol', 'COLLECTION_LOCATION').allowedValues ?? [];
    expect(countries).toContain('North Macedonia');
    expect(countries).not.toContain('Macedonia');
    expect(countries).toHaveLength(275);
  });

  it('says which vocabularies accept case/format variants (ERGA; DTOL/ASG LIFESTAGE)', () => {
    expect(field('erga', 'SEX').normaliseValues).toBe(true);
    expect(field('dtol', 'LIFESTAGE').normaliseValues).toBe(true);
    expect(field('dtol', 'SEX').normaliseValues).toBe(false);
  });

  it('lists the missing-value tokens each field accepts', () => {
    expect(field('dtol', 'SEX').missingValueTokens).toEqual(['NOT_COLLECTED', 'NOT_PROVIDED', 'NOT_APPLICABLE']);
    expect(field('dtol', 'SYMBIONT').missingValueTokens).toEqual([]);
    expect(field('dtol', 'TUBE_OR_WELL_ID').missingValueTokens).toEqual([]);
    expect(field('dtol', 'DATE_OF_COLLECTION').missingValueTokens).toEqual(['NOT_COLLECTED', 'NOT_PROVIDED']);
    expect(field('erga', 'DECIMAL_LATITUDE').missingValueTokens).toEqual(['NOT_COLLECTED']);
    expect(field('erga', 'COLLECTOR_ORCID_ID').missingValueTokens).toEqual(['NOT_PROVIDED', 'NOT_APPLICABLE']);
    expect(field('erga', 'LIFESTAGE').missingValueTokens).toEqual(['NOT_COLLECTED', 'NOT_PROVIDED', 'NOT_APPLICABLE']);
    expect(field('dtol', 'HABITAT').missingValueTokens).toHaveLength(3);
  });

  it('anchors every pattern and names the kinds the rules need', () => {
    for (const def of loadManifestDefinitions()) {
      for (const f of def.fields) {
        if (!f.pattern) continue;
        expect(f.pattern.startsWith('^'), `${def.project} ${f.name}`).toBe(true);
        expect(() => new RegExp(f.pattern ?? '')).not.toThrow();
      }
    }
    expect(new RegExp(field('dtol', 'DEPTH').pattern ?? '', 'i').test('12m')).toBe(false);
    expect(new RegExp(field('dtol', 'DECIMAL_LATITUDE').pattern ?? '', 'i').test('51x5')).toBe(false);
    expect(new RegExp(field('dtol', 'DATE_OF_COLLECTION').pattern ?? '', 'i').test('restricted access')).toBe(true);
    expect(field('dtol', 'DATE_OF_COLLECTION').kind).toBe('date_ena');
    expect(field('dtol', 'DATE_OF_PRESERVATION').kind).toBe('date_iso');
    expect(field('dtol', 'DECIMAL_LONGITUDE')).toMatchObject({ kind: 'longitude', min: -180, max: 180, unit: 'DD' });
    expect(field('dtol', 'ORGANISM_PART').kind).toBe('enum_list');
    expect(field('dtol', 'TUBE_OR_WELL_ID').patternIsWarning).toBe(true);
  });

  it('is plain JSON', () => {
    const all = loadManifestDefinitions();
    expect(JSON.parse(JSON.stringify(all))).toEqual(all);
  });
});
