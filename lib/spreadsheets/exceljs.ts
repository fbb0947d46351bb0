import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded the first time a workbook is read or written rather than when the service starts: importing it
 * (its zip, stream and XML dependencies) lengthened every start, for work most starts never do (docs/benchmarks.md).
 */
export async function loadExcelJS(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}
