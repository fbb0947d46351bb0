import { bodyOf, type WrittenPart, wholeBody } from './byte-chunks';
import type { RowStream } from './stream';

/**
 * A list's JSON answer: the reference's wrapper (`{"status":"OK","number_found":N,"data":[…]}`) or its one-element
 * array form, around the rows as they are written. Said once for the API (lib/api/formats.ts, sendRows) and for the
 * portal's pages that read a list's first page with themselves (jsonAnswer), so that the two are the same text.
 */

type Row = Record<string, unknown> | string;

const jsonOpening = (total: number, arrayWrapped: boolean) => `${arrayWrapped ? '[' : ''}{"status":"OK","number_found":${total},"data":[`;
const jsonClosing = (arrayWrapped: boolean) => (arrayWrapped ? ']}]' : ']}');

/** The answer's parts as the rows are read. */
export async function* jsonParts(result: RowStream<Row>, arrayWrapped: boolean): AsyncGenerator<WrittenPart> {
  yield jsonOpening(result.total, arrayWrapped);
  if (result.written) {
    yield* result.written.json;
  } else {
    let first = true;
    for await (const row of result.rows) {
      yield (first ? '' : ',') + JSON.stringify(row);
      first = false;
    }
  }
  yield jsonClosing(arrayWrapped);
}

/** Every part of the answer at once, for a result whose rows are all in memory (RowStream's `whole`). */
export const jsonWhole = (result: RowStream<Row>, whole: NonNullable<RowStream<Row>['whole']>, arrayWrapped: boolean): WrittenPart[] => [
  jsonOpening(result.total, arrayWrapped),
  ...whole.json(),
  jsonClosing(arrayWrapped),
];

/** The W wrapper as a client reads it: a page of a list. */
export interface ListAnswer<T> {
  status: 'OK';
  number_found: number;
  data: T[];
}

/**
 * A list's answer as the value the API's client parses from its body: what a page hands to the query of its client
 * list that asks the API for the same (components/ui/prefetched.tsx). Meant for a page of rows, read whole.
 */
export async function jsonAnswer<T extends Row>(result: RowStream<T>): Promise<ListAnswer<T>> {
  const body = result.whole ? bodyOf(jsonWhole(result, result.whole, false)) : await wholeBody(jsonParts(result, false));
  return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as ListAnswer<T>;
}
