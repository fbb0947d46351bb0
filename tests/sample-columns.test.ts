import { describe, expect, it } from 'vitest';
import { OBJECT_ID } from '@/lib/identifiers/patterns';
import { newSampleId, TYPED_COLUMN_FIELDS, typedColumns } from '@/lib/samples/columns';

describe('newSampleId', () => {
  it('gives distinct ObjectId-shaped ids across refills of its random pool', () => {
    const ids = Array.from({ length: 5000 }, () => newSampleId());
    for (const id of ids) expect(id).toMatch(OBJECT_ID);
    expect(new Set(ids).size).toBe(ids.length);
    // the pool is cut, not reused: no two ids share their first half either
    expect(new Set(ids.map((id) => id.slice(0, 12))).size).toBe(ids.length);
  });
});

describe('typedColumns', () => {
  it('reads no field but TYPED_COLUMN_FIELDS, all that confirm reads of a new manifest’s rows for them', () => {
    const read = new Set<string>();
    const fields = new Proxy({} as Record<string, string>, {
      get: (_, name) => {
        read.add(String(name));
        return 'x';
      },
    });
    typedColumns(fields);
    expect([...read].sort()).toEqual([...TYPED_COLUMN_FIELDS].sort());
  });
});
