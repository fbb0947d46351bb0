import { sheetNames } from '@/lib/spreadsheets/stream-sheets';
import { UnsafeZipError } from '@/lib/spreadsheets/zip-guard';
import { ManifestParseError } from './errors';
import { manifestFormat } from './parse';
import { csvIsText } from './parse/csv';
import { isZip, METADATA_SHEET, noMetadataSheet, notAWorkbook, sheetKey } from './parse/xlsx';

/**
 * What can be told about an upload in milliseconds, so the uploader gets a 4xx at once instead of a failed report:
 * the file type from its name, a zip that holds a workbook with a `Metadata Entry` sheet, or CSV that is text.
 * The zip's sizes are checked and the workbook's sheet list read (xl/workbook.xml), never its cells: that is the
 * validation job's work.
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
    // the zip's entries and sizes checked (a zip bomb refused), then the sheet list read; no cell is read here
    names = await sheetNames(bytes);
  } catch (err) {
    if (err instanceof UnsafeZipError && !err.unreadable)
      throw new ManifestParseError('too_large', `The workbook cannot be opened: ${err.message}.`);
    throw notAWorkbook(err instanceof UnsafeZipError ? new Error(err.message) : err);
  }
  if (!names.some((n) => sheetKey(n) === sheetKey(METADATA_SHEET))) throw noMetadataSheet(names);
}
