import { TOL_PROJECTS, type TolProject } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import type { Standard } from '@/lib/standards/contract';
import { csvCell } from '@/lib/values/csv';
import { type CopyPlan, copyPlan, fieldCopier } from './field-copier';
import type { Shape } from './key-sequence';
import type { RecordSink, SampleRecordWriter, SampleRecordWriters } from './record-writer';
import { EMBARGOED, type FieldSource, type Layout, layoutFor, readRow, rightsApply, type SampleRow, type Value } from './render';
import { type FieldReader, StoredFields } from './stored-fields';

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

// the columns of each set of shapes met, kept: a look-up's answer asked for them every time (see docs/benchmarks.md).
// Results have few shapes, of a few projects' versions; the bound only guards against a flood of them.
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

/**
 * `JSON.stringify(renderSample(row))`, written without building the record: each field's value is written as the
 * database printed it (already JSON), the service's own values through jsonString. Into a sink, a row of a key
 * sequence met before is written by the field copier (lib/standards/field-copier.ts) when the layout's values are its
 * fields' first and the service's after.
 */
function compileJson(layout: Layout, embargoed: string): SampleRecordWriter {
  const prefixes = layout.keys.map((key, i) => `${i ? ',' : '{'}${JSON.stringify(key)}:`);
  const values = layout.values.map((v) => v.json);
  // the record's keys and values from the `from`th to its end, closed
  const joined = (row: SampleRow, fields: FieldReader, from: number): string => {
    const parts: string[] = new Array((values.length - from) * 2 + 1);
    for (let i = from; i < values.length; i++) {
      parts[2 * (i - from)] = prefixes[i] as string;
      parts[2 * (i - from) + 1] = (values[i] as Value['json'])(row, fields);
    }
    parts[(values.length - from) * 2] = '}';
    return parts.join('');
  };
  const text = (row: SampleRow): string => {
    const fields = readRow(layout, row);
    if (!fields) return embargoed;
    return values.length ? joined(row, fields, 0) : '{}';
  };
  const leading = copiedValues(layout);
  if (!leading) return { text, write: (row, sink) => sink.write(text(row)) };
  const sources = layout.values.slice(0, leading).map((v) => v.field as FieldSource);
  const plans = new WeakMap<Shape, CopyPlan>();
  // the plan of the last row's key sequence, tried first on the next
  let plan: CopyPlan | null = null;
  const write = (row: SampleRow, sink: RecordSink): void => {
    const fields = row.fields;
    if (plan && fields instanceof StoredFields) {
      const copier = fieldCopier();
      const length = copier.fields(fields.bytes ?? fields.text, plan);
      if (length >= 0) {
        if (plan.embargoKey >= 0 && !row.rightsCleared && rightsApply(copier.valueOf(plan.embargoKey))) sink.write(embargoed);
        // the service's values, after the fields: they read nothing of the fields
        else sink.writeBytes(copier.record(copier.append(length, joined(row, layout.fields, leading))));
        return;
      }
    }
    sink.write(text(row));
    // the row was just read by the layout's reader: its key sequence, when the reader has one, is the next row's plan
    const shape = layout.fields.sequence;
    plan = null;
    if (shape) {
      plan = plans.get(shape) ?? copyPlan(shape, prefixes, sources, layout.embargo);
      plans.set(shape, plan);
    }
  };
  return { text, write };
}

/**
 * How many of a layout's values, from the first, are one manifest field's each, when every value after them is the
 * service's own (what the field copier writes: the fields part, then the rest); 0 when the layout is not so.
 */
function copiedValues(layout: Layout): number {
  let leading = 0;
  while (leading < layout.values.length && layout.values[leading]?.field) leading++;
  for (let i = leading; i < layout.values.length; i++) {
    const value = layout.values[i] as Value;
    // a value of several fields (MIxS lat_lon) has no one source; one of a field after the service's is out of order
    if (value.field || !value.service) return 0;
  }
  return leading;
}

function compileCsv(layout: Layout, columns: readonly string[], embargoed: string): SampleRecordWriter {
  const byKey = new Map(layout.keys.map((key, i) => [key, (layout.values[i] as Value).text]));
  const values = columns.map((c) => byKey.get(c));
  const text = (row: SampleRow): string => {
    const fields = readRow(layout, row);
    if (!fields) return embargoed;
    const cells: string[] = new Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      cells[i] = value ? csvCell(value(row, fields)) : '';
    }
    return `${cells.join(',')}\n`;
  };
  return { text, write: (row, sink) => sink.write(text(row)) };
}

/**
 * What a writer compiled once per (project, version) met, for rows of that pair: a JSON writer is kept for the life of
 * the process (jsonRecordWriter), a CSV writer for one result, as its lines depend on the columns.
 */
function perLayout<T>(standard: Standard, compile: (layout: Layout) => T): (row: SampleRow) => T {
  const cache = new Map<string, Map<string, T>>();
  return (row) => {
    let versions = cache.get(row.project);
    if (!versions) {
      versions = new Map();
      cache.set(row.project, versions);
    }
    let compiled = versions.get(row.manifestVersion);
    if (compiled === undefined) {
      compiled = compile(layoutFor(row.project, row.manifestVersion, standard));
      versions.set(row.manifestVersion, compiled);
    }
    return compiled;
  };
}

const EMBARGOED_JSON = JSON.stringify(EMBARGOED);

/** A writer that hands each row to the writer compiled for its (project, version). */
const byLayout = (writerOf: (row: SampleRow) => SampleRecordWriter): SampleRecordWriter => ({
  text: (row) => writerOf(row).text(row),
  write: (row, sink) => writerOf(row).write(row, sink),
});

// a JSON record does not depend on the result it is in: one writer per standard for the life of the process, not
// compiled again for every answer
const jsonWriters = new Map<Standard, SampleRecordWriter>();

/**
 * What `JSON.stringify(renderSample(row))` would be, written straight from the stored row by a writer compiled once
 * per (project, version): a list or an export builds no record objects and decodes no fields it does not have to;
 * into a sink, a row of a key sequence met before is written by the field copier.
 */
export function jsonRecordWriter(standard: Standard): SampleRecordWriter {
  let writer = jsonWriters.get(standard);
  if (!writer) {
    writer = byLayout(perLayout(standard, (layout) => compileJson(layout, EMBARGOED_JSON)));
    jsonWriters.set(standard, writer);
  }
  return writer;
}

/** A CSV line of the rendered record in the result's `columns`, written the same way. */
export function csvRecordWriter(columns: readonly string[], standard: Standard): SampleRecordWriter {
  const embargoedCsv = `${columns.map((c) => (c in EMBARGOED ? csvCell(EMBARGOED[c] as string) : '')).join(',')}\n`;
  return byLayout(perLayout(standard, (layout) => compileCsv(layout, columns, embargoedCsv)));
}

/** A result's writers: the JSON writer, and the CSV writer made when first asked for (a JSON answer never is). */
export const sampleWriters = (columns: readonly string[], standard: Standard): SampleRecordWriters => new SampleWriters(columns, standard);

// a class rather than an object literal with a getter, which V8 builds on a slow path (one per answer)
class SampleWriters implements SampleRecordWriters {
  readonly json: SampleRecordWriter;
  private csvWriter: SampleRecordWriter | undefined;

  constructor(
    private readonly columns: readonly string[],
    private readonly standard: Standard,
  ) {
    this.json = jsonRecordWriter(standard);
  }

  get csv(): SampleRecordWriter {
    this.csvWriter ??= csvRecordWriter(this.columns, this.standard);
    return this.csvWriter;
  }
}
