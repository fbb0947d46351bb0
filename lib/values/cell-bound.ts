/**
 * The bound on a spreadsheet cell, for every sheet the service validates (manifests, study sheets): a cell longer
 * than any field of a manifest or a checklist needs is refused before a rule reads it, so that no rule's cost grows
 * with what an upload can put in one cell (an xlsx can repeat one shared string of any length in every row).
 */
export const CELL_MAX_CHARS = 4096;

/** How much of a value an issue quotes: a report lists thousands of issues, each naming its value. */
export const QUOTED_VALUE_MAX_CHARS = 100;

/** A value as an issue quotes it: whole when short, else its start and its length. */
export const quotedValue = (value: string): string =>
  value.length <= QUOTED_VALUE_MAX_CHARS
    ? value
    : `${value.slice(0, QUOTED_VALUE_MAX_CHARS)}… (${value.length.toLocaleString('en')} characters)`;

export const cellTooLongMessage = (where: string, length: number): string =>
  `The cell ${where} holds ${length.toLocaleString('en')} characters; a cell may hold at most ${CELL_MAX_CHARS.toLocaleString('en')}. Shorten it and upload the sheet again.`;
