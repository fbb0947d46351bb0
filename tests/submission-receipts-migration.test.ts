import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '@/db/client';
import * as schema from '@/db/schema';
import type { Receipt } from '@/lib/submissions/contract';
import { getReceiptXml, getSubmission, submissionJson } from '@/lib/submissions/submissions';
import type { UserRecord } from '@/lib/users/users';

/**
 * Migration 0014 (issue 27): the answers kept in submissions.receipts (a JSONB array) become rows of
 * submission_receipts, in their places, and the API shows them as it did: the same objects, keys in the same order.
 */

const ID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
const OLD: Receipt[] = [
  { at: '2026-11-20T10:00:00.123Z', kind: 'ADD', success: true, submission: 'ERA1', errors: [], infos: ['test'], xml: '<RECEIPT a="1"/>' },
  { at: '2026-11-20T10:00:01.000Z', kind: 'RECEIPT', alias: 'svc-1', success: false, errors: ['gone'], xml: '<RECEIPT a="2"/>' },
  { at: '2026-11-20T10:00:02.999Z', kind: 'ADD', objects: 'reads', success: true, submission: 'ERA2', errors: [], infos: [] },
  { at: '2026-11-20T10:00:03.500Z', kind: 'deposition', success: true, deposition: '42' },
];

let pglite: PGlite;
const migrations = readdirSync(MIGRATIONS_FOLDER)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const apply = async (file: string) => {
  for (const statement of readFileSync(path.join(MIGRATIONS_FOLDER, file), 'utf8').split('--> statement-breakpoint')) {
    if (statement.trim()) await pglite.exec(statement);
  }
};
// how the API built a submission's receipts before 0014, from the JSONB array
let before: unknown;

beforeAll(async () => {
  pglite = await PGlite.create({ extensions: { pg_trgm } });
  for (const f of migrations.filter((m) => m < '0014')) await apply(f);
  await pglite.exec(`insert into users (id, username, email, password_hash) values (1, 'owner', 'o@example.org', 'x');
    insert into profiles (id, owner_id, title, type) values ('0123456789abcdef01234567', 1, 'Migrated', 'dtol');`);
  await pglite.query(
    `insert into submissions (id, kind, repository, profile_id, receipts) values ($1, 'samples', 'ena', '0123456789abcdef01234567', $2::jsonb)`,
    [ID, JSON.stringify(OLD)],
  );
  const { rows } = await pglite.query<{ receipts: (Omit<Receipt, 'xml'> & { has_xml: boolean })[] }>(
    `select (select coalesce(jsonb_agg((r.e - 'xml') || jsonb_build_object('has_xml', r.e ? 'xml') order by r.i), '[]'::jsonb)
      from jsonb_array_elements(s.receipts) with ordinality as r(e, i)) as receipts from submissions s where s.id = $1`,
    [ID],
  );
  before = rows[0]?.receipts.map(({ has_xml, ...r }, n) => ({ ...r, ...(has_xml && { xml_url: `/api/submissions/${ID}/receipts/${n}` }) }));
  for (const f of migrations.filter((m) => m >= '0014')) await apply(f);
}, 120_000);
afterAll(() => pglite?.close());

describe('migration 0014: receipts as rows', () => {
  const admin = { id: 1, isAdmin: true } as UserRecord;

  it('copies every answer into its place and drops the array', async () => {
    const { rows } = await pglite.query<{ seq: number; kind: string }>(
      'select seq, kind from submission_receipts where submission_id = $1 order by seq',
      [ID],
    );
    expect(rows).toEqual(OLD.map((r, seq) => ({ seq, kind: r.kind })));
    const columns = await pglite.query(
      `select 1 from information_schema.columns where table_name = 'submissions' and column_name = 'receipts'`,
    );
    expect(columns.rows).toEqual([]);
  });

  it('shows the same receipts, byte for byte, and serves each kept RECEIPT document', async () => {
    const db = drizzle(pglite, { schema });
    const row = await getSubmission(db, admin, ID);
    expect(before).toHaveLength(OLD.length);
    expect(JSON.stringify(submissionJson(row.submission).receipts)).toBe(JSON.stringify(before));
    expect((await getReceiptXml(db, admin, ID, 1)).xml).toBe('<RECEIPT a="2"/>');
    await expect(getReceiptXml(db, admin, ID, 2)).rejects.toThrow('not an ENA receipt kept as XML');
    await expect(getReceiptXml(db, admin, ID, 4)).rejects.toThrow('has no answer 4');
  });
});
