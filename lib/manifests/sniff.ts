import JSZip from 'jszip';
import { ManifestParseError } from './errors';
import { manifestFormat } from './parse';
import { csvIsText } from './parse/csv';
import { isZip, METADATA_SHEET, noMetadataSheet, notAWorkbook, sheetKey } from './parse/xlsx';

const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
const unescapeXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (m) => entities[m] ?? m);

/**
 * What can be told about an upload in milliseconds, so the uploader gets a 4xx at once instead of a failed report:
 * the file type from its name, a zip that holds a workbook with a `Metadata Entry` sheet, or CSV that is text.
 * Only the workbook's sheet list is read (xl/workbook.xml), never its cells: that is the validation job's work.
 */
export async function checkManifestFile(bytes: Uint8Array, fileName: string): Promise<void> {
  const format = manifestFormat(fileName);
  if (bytes.byteLength === 0) throw new ManifestParseError('empty', 'Manifest uploaded is empty');
  if (format === 'csv') {
    csvIsText(bytes.subarray(0, 64 * 1024));
    return;
  }
  if (!isZip(bytes)) throw notAWorkbook();
  let names: string[];
  try {
    const zip = await JSZip.loadAsync(bytes);
    const workbook = await zip.file('xl/workbook.xml')?.async('string');
    if (workbook === undefined) throw new Error('no xl/workbook.xml');
    names = [...workbook.matchAll(/<(?:\w+:)?sheet\b[^>]*\bname="([^"]*)"/g)].map((m) => unescapeXml(m[1] ?? ''));
  } catch (err) {
    throw notAWorkbook(err);
  }
  if (!names.some((n) => sheetKey(n) === sheetKey(METADATA_SHEET))) throw noMetadataSheet(names);
}
