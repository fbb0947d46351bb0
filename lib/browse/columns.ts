import { currentDefinition, findDefinition } from '@/lib/manifests';
import { TOL_PROJECTS } from '@/lib/projects/contract';
import type { Standard } from '@/lib/standards/contract';
import { isEmbargoed, renderSample } from '@/lib/standards/render';
import { SAMPLE_COLUMN_LIST, type SampleRow } from '@/lib/standards/sample-columns';
import type { RecordShape } from '@/lib/standards/writers';
import type { DisplayColumn, SampleSort } from './contract';

/**
 * The sample browser shows a few columns of each record, headed by their names in the chosen standard. Those names
 * come from the query API's own rendering (renderSample), not from a second copy of the standards map: a probe
 * record whose every value names its source field is rendered, and each output key is traced back to the field
 * whose marker it holds. So collisions (dwc materialSampleID), `svc_` prefixes and fields a standard leaves out
 * come out exactly as in the records themselves.
 */

/** The columns the browser shows, by their ToL names, with the sort key each can be ordered by. */
export const DISPLAY_FIELDS: readonly { field: string; label: string; sort?: SampleSort }[] = [
  { field: 'svc_id', label: 'svc_id', sort: 'svc_id' },
  { field: 'tol_project', label: 'Project', sort: 'project' },
  { field: 'status', label: 'Status', sort: 'status' },
  { field: 'SPECIMEN_ID', label: 'Specimen' },
  { field: 'TUBE_OR_WELL_ID', label: 'Tube or well', sort: 'tube' },
  { field: 'SCIENTIFIC_NAME', label: 'Scientific name', sort: 'scientific_name' },
  { field: 'TAXON_ID', label: 'Taxon id', sort: 'taxon_id' },
  { field: 'biosampleAccession', label: 'BioSample' },
  { field: 'GAL', label: 'GAL' },
  { field: 'time_created', label: 'Created', sort: 'time_created' },
];

const OPEN = '\u0001';
const CLOSE = '\u0002';
const mark = (name: string) => `${OPEN}${name}${CLOSE}`;
const MARKED = new RegExp(`${OPEN}([^${CLOSE}]*)${CLOSE}`, 'g');

/**
 * A row of the shape whose every column the records carry holds a marker of its record key, and every manifest field
 * a marker of its name. The project and the manifest version are the shape's own: they choose the layout rendered.
 */
function probeRow(shape: RecordShape): SampleRow {
  const def = findDefinition(shape.project, shape.version) ?? currentDefinition(shape.project);
  const fields = Object.fromEntries(def.fields.map((f) => [f.name, mark(f.name)]));
  const row: Record<string, unknown> = {};
  for (const [name, column] of SAMPLE_COLUMN_LIST) if (column.record !== null) row[name] = column.probe(mark(column.record));
  Object.assign(row, { project: shape.project, manifestVersion: shape.version, fields });
  // a marked traditional-knowledge field would make the probe an embargoed record, which shows no fields at all
  for (const name of Object.keys(fields))
    if (isEmbargoed({ project: shape.project, fields: { [name]: fields[name] ?? '' } })) fields[name] = '';
  return row as SampleRow;
}

const plans = new Map<string, Map<string, string>>();

/** ToL name → key in the records of one (project, version) in a standard; fields the standard leaves out are absent. */
export function renderedKeys(shape: RecordShape, standard: Standard): Map<string, string> {
  const cacheKey = `${shape.project}|${shape.version}|${standard}`;
  let keys = plans.get(cacheKey);
  if (keys) return keys;
  keys = new Map();
  const probe = probeRow(shape);
  for (const [key, value] of Object.entries(renderSample(probe, standard))) {
    const sources = [...value.matchAll(MARKED)].map((m) => m[1] ?? '');
    // the project is printed upper-cased and cannot carry a marker
    if (!sources.length && value === shape.project.toUpperCase()) sources.push('tol_project');
    for (const source of sources) if (!keys.has(source)) keys.set(source, key);
  }
  plans.set(cacheKey, keys);
  return keys;
}

/**
 * The browser's columns for a result: each display field under its key in the standard, taken from the first shape
 * of the result that has it; a field no shape of the result shows in that standard is left out, as in the records.
 */
export function displayColumns(shapes: readonly RecordShape[], standard: Standard): DisplayColumn[] {
  const present: readonly RecordShape[] = shapes.length
    ? shapes
    : TOL_PROJECTS.map((project) => ({ project, version: currentDefinition(project).version }));
  const out: DisplayColumn[] = [];
  for (const d of DISPLAY_FIELDS) {
    const key = present.map((s) => renderedKeys(s, standard).get(d.field)).find((k) => k !== undefined);
    if (key !== undefined) out.push({ ...d, key });
  }
  return out;
}
