import { and, asc, eq, ilike, or } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { sampleChecklists } from '@/db/schema';
import { fromExcluded } from '@/db/upsert';
import { NotFound } from '@/lib/errors';
import type { ChecklistDetail, ChecklistKind, ChecklistSummary, SampleChecklist } from './contract';
import { normaliseChecklist } from './normalise';

/** The checklists kept (lib/sample-checklists): written by the seed and the daily refresh, read by the API and the sheets. */

type Row = typeof sampleChecklists.$inferSelect;

/** A LIKE pattern of a text taken as it is (its % _ and \\ escaped). */
const containsPattern = (value: string) => `%${value.replace(/[\\%_]/g, '\\$&')}%`;

/** Keeps the checklists given, each replacing the copy of the same id; others are left as they are. */
export async function storeChecklists(db: Db, given: readonly SampleChecklist[], now = new Date()): Promise<void> {
  if (!given.length) return;
  const rows = given.map(normaliseChecklist).map((c) => ({
    id: c.id,
    kind: c.kind,
    source: c.source,
    enaChecklistId: c.enaChecklistId,
    name: c.name,
    label: c.label,
    description: c.description,
    authority: c.authority,
    fields: c.fields,
    refreshedAt: now,
  }));
  await db
    .insert(sampleChecklists)
    .values(rows)
    .onConflictDoUpdate({
      target: sampleChecklists.id,
      set: fromExcluded(sampleChecklists, [
        'kind',
        'source',
        'enaChecklistId',
        'name',
        'label',
        'description',
        'authority',
        'fields',
        'refreshedAt',
      ]).set,
    });
}

const summaryOf = (r: Row): ChecklistSummary => ({
  checklist_id: r.id,
  name: r.name,
  description: r.description,
  field_count: r.fields.length,
  mandatory_count: r.fields.filter((f) => f.requirement === 'mandatory').length,
  source: r.source,
  ena_checklist_id: r.enaChecklistId,
  refreshed: r.refreshedAt.toISOString(),
});

/** The checklists of a kind, ENA's by id then COPO's; `q` is a part of the id, name or description, any case. */
export async function listChecklists(db: Db, opts: { kind: ChecklistKind; q?: string }): Promise<ChecklistSummary[]> {
  const q = opts.q?.trim();
  const rows = await db
    .select()
    .from(sampleChecklists)
    .where(
      and(
        eq(sampleChecklists.kind, opts.kind),
        q
          ? or(
              ilike(sampleChecklists.id, containsPattern(q)),
              ilike(sampleChecklists.name, containsPattern(q)),
              ilike(sampleChecklists.description, containsPattern(q)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(sampleChecklists.source), asc(sampleChecklists.id));
  return rows.map(summaryOf);
}

/** One checklist as kept, or 404 naming it. */
export async function findChecklist(db: Db, id: string): Promise<SampleChecklist & { refreshedAt: Date }> {
  const [row] = await db.select().from(sampleChecklists).where(eq(sampleChecklists.id, id));
  if (!row) throw NotFound(`No checklist ${id}: GET /api/sample/checklists lists those the service knows.`);
  return row;
}

/** One checklist with its fields, as the API answers it. */
export async function checklistDetail(db: Db, id: string): Promise<ChecklistDetail> {
  const row = await findChecklist(db, id);
  return { ...summaryOf(row), label: row.label, authority: row.authority, fields: row.fields };
}
