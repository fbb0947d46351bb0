import type ExcelJS from 'exceljs';
import { columnLetter } from './columns';

/**
 * Drop-down lists on a template's columns: short lists inline in the validation, longer ones (or ones holding commas
 * or quotes) in a column of a hidden sheet the validation points at. Shared by every template the service writes.
 */

/** Excel refuses inline list validations longer than this. */
const INLINE_LIST_LIMIT = 255;

/**
 * exceljs implements range data validations (`dataValidations.add('B2:B1001', …)`) but its typings omit the
 * member; one range per column keeps the file small, where per-cell validations would write a cell per row.
 */
interface WithDataValidations {
  dataValidations: { add(address: string, validation: ExcelJS.DataValidation): void };
}

const quoteSheet = (name: string): string => `'${name.replaceAll("'", "''")}'`;

export class ListValidations {
  private listColumn = 0;

  constructor(
    private readonly sheet: ExcelJS.Worksheet,
    /** the hidden sheet that holds the long lists */
    private readonly lists: ExcelJS.Worksheet,
    /** the last row the drop-downs reach */
    private readonly lastRow: number,
  ) {}

  /**
   * A drop-down of `values` on the sheet's column `column` (1-based), from row 2 to the last row. `strict`: a value
   * not in the list is refused by Excel; otherwise it is only told.
   */
  add(column: number, name: string, values: readonly string[], opts: { strict: boolean; error: string }): void {
    const inline = values.join(',');
    let formula: string;
    if (inline.length + 2 <= INLINE_LIST_LIMIT && !values.some((v) => v.includes(',') || v.includes('"'))) {
      formula = `"${inline}"`;
    } else {
      this.listColumn += 1;
      const col = columnLetter(this.listColumn);
      this.lists.getCell(`${col}1`).value = name;
      for (const [j, v] of values.entries()) this.lists.getCell(`${col}${j + 2}`).value = v;
      formula = `${quoteSheet(this.lists.name)}!$${col}$2:$${col}$${values.length + 1}`;
    }
    const col = columnLetter(column);
    (this.sheet as unknown as WithDataValidations).dataValidations.add(`${col}2:${col}${this.lastRow}`, {
      type: 'list',
      allowBlank: true,
      formulae: [formula],
      showErrorMessage: true,
      errorStyle: opts.strict ? 'stop' : 'information',
      errorTitle: name,
      error: opts.error,
    });
  }
}
