import { TOL_PROJECTS, type TolProject } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import type { Standard } from '@/lib/standards/contract';
import { EMBARGOED, type Layout, layoutFor, readRow, type SampleRow, type Value } from './render';

/**
 * Results written as they stream (lib/query, lib/browse): the CSV columns of a result, and each row's record as a JSON
 * or CSV line, compiled once per (project, manifest version) met rather than built key by key (lib/standards/render.ts
 * renders one record the same way).
 */

/** A (project, manifest version) pair present in a result: it decides the CSV columns before any row is read. */
export interface RecordShape {
  project: TolProject;
  version: string;
}

// an empty result still gets a header: the columns of every project's current version
const CURRENT_SHAPES: RecordShape[] = TOL_PROJECTS.map((project) => ({ project, version: currentDefinition(project).version }));

// the columns of each set of shapes met, kept: a look-up's answer asked for them every time (about 1% of a one-record
// look-up's CPU). Results have few shapes, of a few projects' versions; the bound only guards against a flood of them.
const columnsOfShapes = new Map<string, readonly string[]>();
const COLUMN_SETS_KEPT = 1_000;

/** CSV columns for a result: the keys of each shape's records, merged in the order first met (shared: not to change). */
export function recordColumns(shapes: readonly RecordShape[], standard: Standard): readonly string[] {
  let k: string = standard;
  for (const s of shapes) k += `\u0000${s.project}|${s.version}`;
  let columns = columnsOfShapes.get(k);
  if (!columns) {
    const keys = new Set<string>();
    for (const s of shapes.length ? shapes : CURRENT_SHAPES)
      for (const key of layoutFor(s.project, s.version, standard).keys) keys.add(key);
    // an embargoed ERGA record has only `status`
    if (shapes.some((s) => s.project === 'erga')) keys.add('status');
    columns = Object.freeze([...keys]);
    if (columnsOfShapes.size >= COLUMN_SETS_KEPT) columnsOfShapes.clear();
    columnsOfShapes.set(k, columns);
  }
  return columns;
}

/** A CSV cell as csv-stringify writes it: quoted when it holds a comma, a quote or a line break. */
export const csvCell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * `JSON.stringify(renderSample(row))`, written without building the record: each field's value is written as the
 * database printed it (already JSON), the service's own values through JSON.stringify.
 */
function compileJson(layout: Layout, embargoed: string): (row: SampleRow) => string {
  const prefixes = layout.keys.map((key, i) => `${i ? ',' : '{'}${JSON.stringify(key)}:`);
  const values = layout.values.map((v) => v.json);
  if (!values.length) return (row) => (readRow(layout, row) ? '{}' : embargoed);
  return (row) => {
    const fields = readRow(layout, row);
    if (!fields) return embargoed;
    const parts: string[] = new Array(values.length * 2 + 1);
    for (let i = 0; i < values.length; i++) {
      parts[2 * i] = prefixes[i] as string;
      parts[2 * i + 1] = (values[i] as Value['json'])(row, fields);
    }
    parts[values.length * 2] = '}';
    return parts.join('');
  };
}

function compileCsv(layout: Layout, columns: readonly string[], embargoed: string): (row: SampleRow) => string {
  const byKey = new Map(layout.keys.map((key, i) => [key, (layout.values[i] as Value).text]));
  const values = columns.map((c) => byKey.get(c));
  return (row) => {
    const fields = readRow(layout, row);
    if (!fields) return embargoed;
    const cells: string[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      cells[i] = value ? csvCell(value(row, fields)) : '';
    }
    return `${cells.join(',')}\n`;
  };
}

/**
 * A writer that compiles, once per (project, version) met, what it writes for rows of that pair: a JSON writer is kept
 * for the life of the process (sampleJsonWriter), a CSV writer for one result, as its lines depend on the columns.
 */
function perLayout(standard: Standard, compile: (layout: Layout) => (row: SampleRow) => string): (row: SampleRow) => string {
  const cache = new Map<string, (row: SampleRow) => string>();
  return (row) => {
    const k = `${row.project}|${row.manifestVersion}`;
    let write = cache.get(k);
    if (!write) {
      write = compile(layoutFor(row.project, row.manifestVersion, standard));
      cache.set(k, write);
    }
    return write(row);
  };
}

const EMBARGOED_JSON = JSON.stringify(EMBARGOED);
// a JSON record does not depend on the result it is in: one writer per standard for the life of the process (compiling
// it for every answer took about 4% of a one-record look-up's CPU)
const jsonWriters = new Map<Standard, (row: SampleRow) => string>();

/**
 * What `JSON.stringify(renderSample(row))` would be, written straight from the stored row by a function compiled
 * once per (project, version): a list or an export builds no record objects and decodes no fields it does not have
 * to.
 */
export const sampleJsonWriter = (standard: Standard): ((row: SampleRow) => string) => {
  let write = jsonWriters.get(standard);
  if (!write) {
    write = perLayout(standard, (layout) => compileJson(layout, EMBARGOED_JSON));
    jsonWriters.set(standard, write);
  }
  return write;
};

/**
 * The JSON writer, and a CSV line of the rendered record in the result's `columns`, written the same way; the CSV
 * writer is made when first asked for (a JSON answer never is).
 */
export const sampleWriters = (columns: readonly string[], standard: Standard): SampleWriters => new SampleWriters(columns, standard);

// a class rather than an object literal with a getter, which V8 builds on a slow path (one per answer)
class SampleWriters {
  readonly json: (row: SampleRow) => string;
  private csvWriter: ((row: SampleRow) => string) | undefined;

  constructor(
    private readonly columns: readonly string[],
    private readonly standard: Standard,
  ) {
    this.json = sampleJsonWriter(standard);
  }

  get csv(): (row: SampleRow) => string {
    if (!this.csvWriter) {
      const { columns, standard } = this;
      const embargoedCsv = `${columns.map((c) => (c in EMBARGOED ? csvCell(EMBARGOED[c] as string) : '')).join(',')}\n`;
      this.csvWriter = perLayout(standard, (layout) => compileCsv(layout, columns, embargoedCsv));
    }
    return this.csvWriter;
  }
}
