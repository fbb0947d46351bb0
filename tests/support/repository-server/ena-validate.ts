import { attr, child, type DocObject, has, list, type Node, type ObjectType, textOf } from './ena-xml';
import type { TaxonomyTable } from './taxonomy';

/**
 * Per-object checks in ENA's own wording where we know it: the XSD's required elements, submittable taxa, and
 * checklist attributes in the BioSamples JSON-schema wording used since 2025 (`Sample: …; Attribute: …; Reason: …`).
 */

export interface ValidationContext {
  taxa: TaxonomyTable;
  /** mandatory attribute tags per checklist */
  checklists: Record<string, string[]>;
  /** resolves a reference by alias within the document or the account */
  hasAlias(type: ObjectType, alias: string): boolean;
  /** resolves a reference by accession within the account */
  hasAccession(types: ObjectType[], accession: string): boolean;
  /** a file of the account's upload area (null: not there), when the upload area is checked */
  areaFile?(filename: string): { size: number; md5: string } | null;
}

/** ERC000053 (ENA Tree of Life): the attributes every ToL sample and specimen carries. */
export const DEFAULT_CHECKLISTS: Record<string, string[]> = {
  ERC000053: [
    'project name',
    'collected_by',
    'collection date',
    'geographic location (country and/or sea)',
    'lifestage',
    'organism part',
    'sex',
    'specimen_id',
  ],
  ERC000011: [],
  // GSC MIxS soil (tests/fixtures/ena-checklists/sample-checklists.xml): its mandatory fields
  ERC000022: [
    'project name',
    'investigation type',
    'collection date',
    'geographic location (country and/or sea)',
    'geographic location (latitude)',
    'geographic location (longitude)',
    'depth',
    'elevation',
    'broad-scale environmental context',
    'local environmental context',
    'environmental medium',
  ],
};

const COORDINATE_TAGS = /^(original )?geographic location \((latitude|longitude)\)$/;
const COORDINATE = /^[+-]?\d+(\.\d{1,8})?$/;
const MISSING = /^(not collected|not provided|not applicable|restricted access)$/;
const SAMPLE_ACCESSION = /^(SAM[EDN][A-Z]?\d+|[EDS]RS\d+)$/;

const where = (o: DocObject) => `In ${o.type.toLowerCase()}, alias: "${o.alias}".`;
const textChild = (node: unknown, name: string) => textOf(child(node, name)).trim();

function refOk(ref: unknown, ctx: ValidationContext, types: ObjectType[], accessionPattern?: RegExp): boolean {
  const accession = attr(ref, 'accession');
  if (accession) return ctx.hasAccession(types, accession) || (accessionPattern?.test(accession) ?? false);
  const refname = attr(ref, 'refname');
  return refname !== undefined && types.some((t) => ctx.hasAlias(t, refname));
}

function project(o: DocObject): string[] {
  const errors: string[] = [];
  if (!textChild(o.node, 'TITLE')) errors.push(`${where(o)} The TITLE element is required.`);
  if (!has(o.node, 'SUBMISSION_PROJECT') && !has(o.node, 'UMBRELLA_PROJECT'))
    errors.push(`${where(o)} One of SUBMISSION_PROJECT or UMBRELLA_PROJECT is required.`);
  return errors;
}

function sample(o: DocObject, ctx: ValidationContext): string[] {
  const errors: string[] = [];
  const taxId = textChild(child(o.node, 'SAMPLE_NAME'), 'TAXON_ID');
  if (!taxId) errors.push(`${where(o)} The SAMPLE_NAME/TAXON_ID element is required.`);
  else if (!/^\d+$/.test(taxId)) errors.push(`${where(o)} Invalid taxon id "${taxId}".`);
  else {
    const taxon = ctx.taxa.get(taxId);
    if (!taxon) errors.push(`${where(o)} Unknown taxon id "${taxId}".`);
    else if (taxon.submittable !== 'true') errors.push(`${where(o)} Taxon id "${taxId}" (${taxon.scientificName}) is not submittable.`);
  }

  const attributes = list(child(child(o.node, 'SAMPLE_ATTRIBUTES'), 'SAMPLE_ATTRIBUTE')).map((a) => ({
    tag: textChild(a, 'TAG'),
    value: textChild(a, 'VALUE'),
    units: textChild(a, 'UNITS'),
    hasValue: has(a, 'VALUE'),
  }));
  const name = o.alias;
  const checklist = attributes.find((a) => a.tag === 'ENA-CHECKLIST')?.value;
  if (!checklist) {
    errors.push(`Sample: ${name}; Reason: must have required property 'ENA-CHECKLIST'`);
    return errors;
  }
  const mandatory = ctx.checklists[checklist];
  if (!mandatory) {
    errors.push(`Sample: ${name}; Attribute: ENA-CHECKLIST; Reason: unknown checklist ${checklist}`);
    return errors;
  }
  const tags = new Set(attributes.filter((a) => a.value).map((a) => a.tag));
  for (const m of mandatory) if (!tags.has(m)) errors.push(`Sample: ${name}; Reason: must have required property '${m}'`);
  for (const a of attributes) {
    if (!a.tag) errors.push(`Sample: ${name}; Reason: every SAMPLE_ATTRIBUTE needs a TAG`);
    if (!a.hasValue) errors.push(`Sample: ${name}; Attribute: ${a.tag}; Reason: must have required property 'value'`);
    if (COORDINATE_TAGS.test(a.tag)) {
      if (!MISSING.test(a.value) && !COORDINATE.test(a.value))
        errors.push(`Sample: ${name}; Attribute: ${a.tag}; Reason: must match pattern ^[+-]?\\d+(\\.\\d{1,8})?$`);
      if (!a.units) errors.push(`Sample: ${name}; Attribute: ${a.tag}; Reason: must have required property 'unit'`);
      else if (a.units !== 'DD')
        errors.push(`Sample: ${name}; Attribute: ${a.tag}; Reason: must be equal to one of the allowed values:[DD]`);
    }
  }
  const singles = new Map<string, number>();
  for (const a of attributes) singles.set(a.tag, (singles.get(a.tag) ?? 0) + 1);
  for (const t of ['ENA-CHECKLIST', 'collection date', 'project name'])
    if ((singles.get(t) ?? 0) > 1) errors.push(`Sample: ${name}; Attribute: ${t}; Reason: must NOT have more than 1 items`);
  return errors;
}

function experiment(o: DocObject, ctx: ValidationContext): string[] {
  const errors: string[] = [];
  const studyRef = child(o.node, 'STUDY_REF');
  if (!studyRef) errors.push(`${where(o)} The STUDY_REF element is required.`);
  else if (!refOk(studyRef, ctx, ['PROJECT'])) errors.push(`${where(o)} The referenced study does not exist in the submission account.`);
  const design = child(o.node, 'DESIGN');
  if (!design) errors.push(`${where(o)} The DESIGN element is required.`);
  const sampleRef = child(design, 'SAMPLE_DESCRIPTOR');
  if (!sampleRef) errors.push(`${where(o)} The DESIGN/SAMPLE_DESCRIPTOR element is required.`);
  else if (!refOk(sampleRef, ctx, ['SAMPLE'], SAMPLE_ACCESSION)) errors.push(`${where(o)} The referenced sample does not exist.`);
  const lib = child(design, 'LIBRARY_DESCRIPTOR');
  for (const req of ['LIBRARY_STRATEGY', 'LIBRARY_SOURCE', 'LIBRARY_SELECTION'])
    if (!textChild(lib, req)) errors.push(`${where(o)} The LIBRARY_DESCRIPTOR/${req} element is required.`);
  const layout = child(lib, 'LIBRARY_LAYOUT');
  if (!has(layout, 'SINGLE') && !has(layout, 'PAIRED')) errors.push(`${where(o)} LIBRARY_LAYOUT must be SINGLE or PAIRED.`);
  const platform = child(o.node, 'PLATFORM');
  const platforms = Object.keys((platform as Record<string, unknown>) ?? {}).filter((k) => !k.startsWith('@_'));
  if (platforms.length !== 1 || !textChild(child(platform, platforms[0] ?? ''), 'INSTRUMENT_MODEL'))
    errors.push(`${where(o)} PLATFORM needs one platform with an INSTRUMENT_MODEL.`);
  return errors;
}

/** A data file as a RUN or an ANALYSIS names it. */
export interface DataFile {
  filename?: string;
  filetype?: string;
  method?: string;
  checksum: string;
}

/** The FILE elements of a RUN (under DATA_BLOCK) or an ANALYSIS (directly under it); none for other objects. */
export function dataFiles(o: DocObject): DataFile[] {
  const holder =
    o.type === 'RUN' ? child(child(o.node, 'DATA_BLOCK'), 'FILES') : o.type === 'ANALYSIS' ? child(o.node, 'FILES') : undefined;
  return list(child(holder, 'FILE')).map((f) => ({
    filename: attr(f, 'filename'),
    filetype: attr(f, 'filetype'),
    method: attr(f, 'checksum_method'),
    checksum: attr(f, 'checksum') ?? '',
  }));
}

const CHECKSUM: Record<string, RegExp> = { MD5: /^[0-9a-fA-F]{32}$/, 'SHA-256': /^[0-9a-fA-F]{64}$/ };

/** The checks Webin makes of each FILE: a name, a type, a checksum of the method, and the bytes in the upload area. */
function fileErrors(o: DocObject, methods: string[], ctx: ValidationContext): string[] {
  const errors: string[] = [];
  for (const { filename, filetype, method, checksum } of dataFiles(o)) {
    if (!filename) errors.push(`${where(o)} Every FILE needs a filename.`);
    if (!filetype) errors.push(`${where(o)} FILE ${filename ?? ''} needs a filetype.`);
    const pattern = method && methods.includes(method) ? CHECKSUM[method] : undefined;
    if (!method || !pattern) errors.push(`${where(o)} FILE ${filename ?? ''} needs checksum_method ${methods.join(' or ')}.`);
    else if (!pattern.test(checksum)) errors.push(`${where(o)} Invalid ${method} checksum "${checksum}" for file ${filename ?? ''}.`);
    else if (filename && ctx.areaFile) {
      // as Webin does: the file must be in the account's upload area, with the bytes the object says
      const staged = ctx.areaFile(filename);
      if (!staged) errors.push(`${where(o)} Failed to find file "${filename}" in the Webin upload area.`);
      else if (method === 'MD5' && staged.md5 !== checksum.toLowerCase())
        errors.push(`${where(o)} Invalid MD5 checksum "${checksum}" for file "${filename}": the uploaded file has ${staged.md5}.`);
    }
  }
  return errors;
}

function run(o: DocObject, ctx: ValidationContext): string[] {
  const errors: string[] = [];
  const ref = child(o.node, 'EXPERIMENT_REF');
  if (!ref) errors.push(`${where(o)} The EXPERIMENT_REF element is required.`);
  else if (!refOk(ref, ctx, ['EXPERIMENT'])) errors.push(`${where(o)} The referenced experiment does not exist in the submission account.`);
  if (!dataFiles(o).length) errors.push(`${where(o)} DATA_BLOCK/FILES needs at least one FILE.`);
  errors.push(...fileErrors(o, ['MD5', 'SHA-256'], ctx));
  return errors;
}

/**
 * An ANALYSIS: its study is required (the XSD lets it out; Webin does not), every reference must resolve as an
 * experiment's do, and its FILES are checked as a run's are, with MD5 the only method SRA.analysis.xsd allows.
 */
function analysis(o: DocObject, ctx: ValidationContext): string[] {
  const errors: string[] = [];
  const studyRef = child(o.node, 'STUDY_REF');
  if (!studyRef) errors.push(`${where(o)} The STUDY_REF element is required.`);
  else if (!refOk(studyRef, ctx, ['PROJECT'])) errors.push(`${where(o)} The referenced study does not exist in the submission account.`);
  const refs: [string, ObjectType, string, RegExp?][] = [
    ['SAMPLE_REF', 'SAMPLE', 'sample', SAMPLE_ACCESSION],
    ['EXPERIMENT_REF', 'EXPERIMENT', 'experiment'],
    ['RUN_REF', 'RUN', 'run'],
    ['ANALYSIS_REF', 'ANALYSIS', 'analysis'],
  ];
  for (const [element, type, word, pattern] of refs) {
    for (const ref of list(child(o.node, element))) {
      if (refOk(ref, ctx, [type], pattern)) continue;
      const name = attr(ref, 'accession') ?? attr(ref, 'refname') ?? '';
      errors.push(`${where(o)} The referenced ${word} "${name}" does not exist in the submission account.`);
    }
  }
  const kinds = Object.keys((child(o.node, 'ANALYSIS_TYPE') as Node | undefined) ?? {}).filter((k) => !k.startsWith('@_'));
  if (kinds.length !== 1) errors.push(`${where(o)} ANALYSIS_TYPE needs exactly one analysis type.`);
  if (!dataFiles(o).length) errors.push(`${where(o)} FILES needs at least one FILE.`);
  errors.push(...fileErrors(o, ['MD5'], ctx));
  return errors;
}

/** The files the RUNs and ANALYSes of a document name. */
export function dataFileNames(objects: DocObject[]): string[] {
  return objects.flatMap((o) => dataFiles(o).map((f) => f.filename ?? '')).filter(Boolean);
}

/** Every problem with one object; empty when ENA would take it. */
export function validateObject(o: DocObject, ctx: ValidationContext): string[] {
  if (!o.alias) return [`Missing alias attribute in ${o.type}.`];
  switch (o.type) {
    case 'PROJECT':
      return project(o);
    case 'SAMPLE':
      return sample(o, ctx);
    case 'EXPERIMENT':
      return experiment(o, ctx);
    case 'RUN':
      return run(o, ctx);
    case 'ANALYSIS':
      return analysis(o, ctx);
  }
}
