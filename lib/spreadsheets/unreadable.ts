/** Why a workbook cannot be read, in words for the uploader. */
export class WorkbookUnreadable extends Error {
  constructor(
    message: string,
    /** too large (a zip bomb, too many rows) rather than broken */
    readonly tooLarge = false,
  ) {
    super(message);
    this.name = 'WorkbookUnreadable';
  }
}
