import type { SampleRow } from './sample-columns';

/**
 * How a sample's record is written in one output format, whichever way it is made: the writers the answers use
 * (lib/standards/writers.ts, straight from the stored row, with the field copier where it can) and the plain reference
 * they are held to (lib/standards/reference-writer.ts, tests/record-writers.test.ts).
 */

/**
 * Where a record is written as it is made: an answer's chunks (lib/query/byte-chunks.ts, ByteChunks), as text or as
 * bytes already encoded.
 */
export interface RecordSink {
  write(text: string): void;
  writeBytes(bytes: Uint8Array): void;
}

/** One output format's record of a row: a JSON object, or a CSV line (its line break included). */
export interface SampleRecordWriter {
  /** the record as text */
  text(row: SampleRow): string;
  /** the same record written into a sink */
  write(row: SampleRow, out: RecordSink): void;
}

/** The writers of one result's records: as JSON, and as CSV lines in the result's columns. */
export interface SampleRecordWriters {
  readonly json: SampleRecordWriter;
  readonly csv: SampleRecordWriter;
}
