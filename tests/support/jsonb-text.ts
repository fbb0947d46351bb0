import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';

/**
 * What the database prints for jsonb values (`value::text`): PGlite by default, or the PostgreSQL server named by
 * TEST_DATABASE_URL, as the other tests choose their database. Nothing is stored: the values go in as one parameter.
 */
export interface JsonbText {
  engine: string;
  /** each record as the database prints it once stored as jsonb */
  print(records: readonly Record<string, string>[]): Promise<string[]>;
  close(): Promise<void>;
}

/** Text jsonb can store: neither NUL nor half a surrogate pair (which UTF-8 cannot carry). */
export const storable = (s: string): boolean => !s.includes('\u0000') && Buffer.from(s).toString() === s;

const QUERY = 'select e::text as t from jsonb_array_elements($1::text::jsonb) with ordinality as x(e, i) order by i';

export async function jsonbText(): Promise<JsonbText> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    return {
      engine: 'postgres',
      print: async (records) => (await sql.unsafe<{ t: string }[]>(QUERY, [JSON.stringify(records)])).map((r) => r.t),
      close: () => sql.end(),
    };
  }
  const pglite = await PGlite.create();
  return {
    engine: 'pglite',
    print: async (records) => (await pglite.query<{ t: string }>(QUERY, [JSON.stringify(records)])).rows.map((r) => r.t),
    close: () => pglite.close(),
  };
}
