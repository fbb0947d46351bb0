import { gzipSync } from 'node:zlib';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import type { BarcodeFields } from './contract';

/**
 * ENA's annotated sequence spreadsheet, the TAB file of Webin-CLI's `-context sequence`: tab separated, its first line
 * `#template_accession <checklist>`, then a header of the checklist's field names, then a line per sequence with its
 * SEQUENCE. Every mandatory field has its column, an optional one only when a barcode has a value for it (Webin-CLI
 * refuses a column its checklist does not know, and reads an empty one as a value given empty). Compressed with
 * gzip, as Webin-CLI wants the files it uploads.
 */

const SEQUENCE = 'SEQUENCE';
const LINE_BREAKING = /[\t\n\r]/;

export interface TabBarcode {
  fields: BarcodeFields;
  sequence: string;
}

export function barcodeTabText(checklist: SampleChecklist, rows: readonly TabBarcode[]): string {
  const cellOf = (r: TabBarcode, name: string) => (name === SEQUENCE ? r.sequence : (r.fields[name] ?? ''));
  const columns = checklist.fields.filter((f) => f.requirement === 'mandatory' || rows.some((r) => cellOf(r, f.name))).map((f) => f.name);
  const lines = [`#template_accession ${checklist.id}`, columns.join('\t')];
  for (const r of rows) {
    const cells = columns.map((name) => cellOf(r, name).trim());
    const broken = cells.find((c) => LINE_BREAKING.test(c));
    // the sheet's checks refuse these; a row stored before them must not shift the file's columns
    if (broken !== undefined) throw new Error(`a barcode's value holds a tab or a line break: ${JSON.stringify(broken.slice(0, 40))}`);
    lines.push(cells.join('\t'));
  }
  return `${lines.join('\n')}\n`;
}

export const barcodeTabFile = (checklist: SampleChecklist, rows: readonly TabBarcode[]): Buffer =>
  gzipSync(barcodeTabText(checklist, rows));
