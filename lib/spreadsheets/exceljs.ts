import type ExcelJS from 'exceljs';

/**
 * exceljs, loaded the first time a workbook is read or written rather than when the service starts: importing it
 * took about 0.4 s of every start (its zip, stream and XML dependencies), for work most starts never do.
 */
export async function loadExcelJS(): Promise<typeof ExcelJS> {
  return (await import('exceljs')).default;
}
