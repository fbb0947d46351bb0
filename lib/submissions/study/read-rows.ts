import { createHash } from 'node:crypto';
import type { ComponentDefinition } from '@/lib/checklists/contract';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { type Attribute, type ExperimentSpec, platformOf } from '@/lib/repositories/ena';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';

/**
 * A study's read rows as ENA takes them (docs/studies-and-checklists.md §11.2–11.3), from the sheet alone: each row
 * of the component the checklist sends to ENA as `read` (single cell: `file`) becomes one EXPERIMENT (library from
 * the linked lib_prep, cell suspension and dissociation rows, platform and layout from the sequencing row, the row's
 * BioSample as SAMPLE_DESCRIPTOR: its own sample, or its library preparation's in the reads schema) and one RUN naming
 * its read files. A row that cannot be sent is refused here, with
 * the sheet and row it came from, before anything is sent anywhere.
 */

export interface ReadFile {
  /** the name in the profile's storage, as the sheet gives it */
  name: string;
  md5: string;
  filetype: 'fastq' | 'bam' | 'cram' | 'OxfordNanopore_native';
}

export interface ReadRow {
  fileId: string;
  /** aliases are unique per object type; distinct ones let a RECEIPT name exactly the object asked for */
  experimentAlias: string;
  runAlias: string;
  experiment: Omit<ExperimentSpec, 'alias' | 'study'>;
  files: ReadFile[];
  /** what is sent for the row, hashed: a changed row is sent again with MODIFY */
  digest: string;
}

// the sheets' read files, each with its checksum in the sibling `<term>_checksum`
const READ_TERMS = ['read_1_file', 'read_2_file'];
// columns that become elements of the EXPERIMENT rather than its attributes
const LIBRARY_TERMS = new Set([
  'read_file_type',
  'library_strategy',
  'library_source',
  'library_selection',
  'design_description',
  'sequencing_instrument_model',
  'lib_layout',
  'library_construction_protocol',
]);

const refused = (message: string) => new RepositoryRefused('ena', message);

// the sheet's read_file_type (reads schema) as SRA.run.xsd spells it; without one the name tells
const SHEET_FILE_TYPES: Record<string, ReadFile['filetype']> = {
  fastq: 'fastq',
  bam: 'bam',
  cram: 'cram',
  oxfordnanopore_native: 'OxfordNanopore_native',
};

function fileType(name: string, stated: string | undefined): ReadFile['filetype'] | undefined {
  const sheet = stated && SHEET_FILE_TYPES[stated.trim().toLowerCase()];
  if (sheet) return sheet;
  if (/\.(fastq|fq)(\.(gz|bz2))?$/i.test(name)) return 'fastq';
  if (/\.bam$/i.test(name)) return 'bam';
  if (/\.cram$/i.test(name)) return 'cram';
  return undefined;
}

function layoutOf(value: string | undefined, where: string): ExperimentSpec['libraryLayout'] {
  const v = (value ?? '').trim().toUpperCase();
  if (v === 'PAIRED' || v === 'SINGLE') return { type: v };
  throw refused(`${where}: library layout '${value ?? ''}' cannot be sent to ENA, which takes Single or Paired.`);
}

/** A row with the values of the rows it references (not the study, not the sample), its own values first. */
function flatten(
  def: ChecklistDefinition,
  components: StudyRow['components'],
  component: ComponentDefinition,
  row: Record<string, string>,
  seen = new Set<string>(),
): Record<string, string> {
  const out = { ...row };
  seen.add(component.key);
  for (const f of component.fields) {
    const target = f.referencedComponent ? def.components.find((c) => c.key === f.referencedComponent) : undefined;
    if (!target || target.key === 'study' || target.key === 'sample' || seen.has(target.key)) continue;
    const id = target.fields.find((x) => x.identifier);
    const ref = id && components[target.key]?.find((r) => r[id.termName] === row[f.termName]);
    if (!ref) continue;
    for (const [k, v] of Object.entries(flatten(def, components, target, ref, seen))) if (!(k in out)) out[k] = v;
  }
  return out;
}

/** The read rows of a study, or [] when its checklist sends no reads to ENA. Rejected when a row cannot be sent. */
export function readRowsOf(def: ChecklistDefinition, study: StudyRow): ReadRow[] {
  const component = def.components.find((c) => c.repositories.ena === 'read');
  const rows = component ? (study.components[component.key] ?? []) : [];
  if (!component || !rows.length) return [];
  const idTerm = component.fields.find((f) => f.identifier)?.termName;
  const sampleRef = component.fields.find((f) => f.referencedComponent === 'sample');
  const samples = study.components.sample ?? [];
  const accessionTerm = def.components.find((c) => c.key === 'sample')?.fields.find((f) => f.type === 'BIOSAMPLEACCESSION_FIELD');
  const named = new Map(component.fields.map((f) => [f.termName, f]));
  const allFields = new Map(def.components.flatMap((c) => c.fields.map((f) => [f.termName, f] as const)));

  return rows.map((row) => {
    const fileId = (idTerm && row[idTerm]) || '';
    const where = `Sheet ${component.key}, ${fileId}`;
    const flat = flatten(def, study.components, component, row);
    // the reads schema names the sample on the library preparation, which the flattened row carries
    const sampleId = (sampleRef && row[sampleRef.termName]) || flat.sample_id;
    const sample = sampleId ? samples.find((s) => s.sample_id === sampleId) : undefined;
    const biosample = sample && accessionTerm ? sample[accessionTerm.termName] : undefined;
    if (!biosample) throw refused(`${where}: the row's sample has no BioSample accession to reference.`);
    const instrument = flat.sequencing_instrument_model ?? '';
    const platform = platformOf(instrument);
    if (!platform) throw refused(`${where}: ENA lists no platform for the instrument '${instrument}'.`);
    const library = (term: string) => {
      const value = flat[term];
      if (!value) throw refused(`${where}: the linked library preparation has no ${term}.`);
      return value;
    };
    const libraryStrategy = library('library_strategy');
    const librarySource = library('library_source');
    const librarySelection = library('library_selection');
    const files: ReadFile[] = READ_TERMS.flatMap((t) => {
      const name = row[t];
      if (!name) return [];
      const filetype = fileType(name, row.read_file_type);
      if (!filetype) {
        throw refused(`${where}: ${name} is not a FASTQ, BAM, CRAM or Oxford Nanopore file, which is what ENA takes as reads.`);
      }
      const md5 = (row[`${t}_checksum`] ?? '').toLowerCase();
      if (!/^[0-9a-f]{32}$/.test(md5)) throw refused(`${where}: ${name} has no MD5 checksum in the sheet.`);
      return [{ name, md5, filetype }];
    });
    if (!files.length) throw refused(`${where}: the row names no read file.`);

    const consumed = new Set([...LIBRARY_TERMS, ...READ_TERMS, ...READ_TERMS.map((t) => `${t}_checksum`)]);
    const attributes: Attribute[] = Object.entries(flat)
      .filter(([term, value]) => {
        const f = named.get(term) ?? allFields.get(term);
        return value && !consumed.has(term) && !f?.identifier && !f?.referencedComponent && f?.type !== 'file';
      })
      .map(([term, value]) => ({ tag: allFields.get(term)?.enaName ?? term, value }));
    const experiment: ReadRow['experiment'] = {
      title: `${study.studyId} ${fileId}`,
      sample: { accession: biosample },
      designDescription: flat.design_description ?? '',
      ...(row.library_prep_id && { libraryName: row.library_prep_id }),
      libraryStrategy,
      librarySource,
      librarySelection,
      libraryLayout: layoutOf(flat.lib_layout, where),
      ...(flat.library_construction_protocol && { libraryConstructionProtocol: flat.library_construction_protocol }),
      platform,
      instrumentModel: instrument,
      attributes,
    };
    const digest = createHash('sha256').update(JSON.stringify({ experiment, files })).digest('hex');
    const alias = `${study.profileId}:${study.studyId}:${fileId}`;
    return { fileId, experimentAlias: `${alias}:experiment`, runAlias: `${alias}:run`, experiment, files, digest };
  });
}

/** Where a profile's read file lies in the Webin upload area. */
export const areaPathOf = (profileId: string, name: string) => `${profileId}/${name}`;
