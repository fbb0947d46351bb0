import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { associatedTypes, auditEvents, type ReferenceObject, sequencingCentres } from '@/db/schema';
import { Conflict, fieldInvalid, NotFound } from '@/lib/errors';
import { type AssociatedType, referenceCache, type SequencingCentre } from './cache';
import {
  type AssociatedTypeJson,
  type AssociatedTypePatchBody,
  AssociatedTypePatchBodySchema,
  type NewAssociatedTypeBody,
  NewAssociatedTypeBodySchema,
  type NewSequencingCentreBody,
  NewSequencingCentreBodySchema,
  type SequencingCentreJson,
  type SequencingCentrePatchBody,
  SequencingCentrePatchBodySchema,
} from './contract';

/**
 * An administrator's changes of the associated types and sequencing centres: each in one transaction with its audit
 * event (`audit_events`, what changed and what it was), after which this process's copy of the lists is cleared so its
 * next request reads the change; other processes read it within REFERENCE_CACHE_SECONDS. Nothing is ever deleted:
 * profiles and samples keep the names they carry, so a type or centre is retired (`selectable` false) instead.
 */

export const associatedTypeJson = (t: AssociatedType): AssociatedTypeJson => ({
  name: t.name,
  label: t.label,
  approval_required: t.approvalRequired,
  approval_required_on_update: t.approvalRequiredOnUpdate,
  selectable: t.selectable,
  acceptance_text: t.acceptanceText,
  time_updated: t.timeUpdated.toISOString(),
});

export const sequencingCentreJson = (c: SequencingCentre): SequencingCentreJson => ({
  name: c.name,
  label: c.label,
  approval_required: c.approvalRequired,
  // in the contract's key order: the database keeps a JSON object's keys in an order of its own
  contacts: c.contacts.map(({ name, email, role }) => ({ name, email, role })),
  selectable: c.selectable,
  time_updated: c.timeUpdated.toISOString(),
});

type Detail = Record<string, string | number | null>;
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The fields that differ, each with what it was (`<field>_was`) where it was something; empty when the change changes
 * nothing. A creation is a change from nothing.
 */
function changed(before: Record<string, unknown>, after: Record<string, unknown>): Detail {
  const detail: Detail = {};
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined || (field in before && text(value) === text(before[field]))) continue;
    detail[field] = text(value);
    if (field in before) detail[`${field}_was`] = text(before[field]);
  }
  return detail;
}

async function audit(tx: Db, actorId: number, action: 'create' | 'update', objectType: ReferenceObject, name: string, detail: Detail) {
  await tx.insert(auditEvents).values({ actorId, action, objectType, objectId: name, profileId: null, detail });
}

const upper = (name: string) => name.trim().toUpperCase();
// a creation's audit row names the row by its name already
const exceptName = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([field]) => field !== 'name'));
const duplicate = (what: string, name: string) => Conflict(`There is already ${what} named ${name}.`);
const unknown = (what: string, name: string) => NotFound(`No ${what} is named ${name}.`);
const nextPosition = (table: typeof associatedTypes | typeof sequencingCentres) =>
  sql<number>`(select coalesce(max(${table.position}), 0) + 1 from ${table})`;

/** Adds an associated type; 409 when the name is taken. */
export async function createAssociatedType(db: Db, actorId: number, body: NewAssociatedTypeBody): Promise<AssociatedType> {
  const b = NewAssociatedTypeBodySchema.parse(body);
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(associatedTypes)
      .values({
        name: b.name,
        label: b.label,
        approvalRequired: b.approval_required,
        approvalRequiredOnUpdate: b.approval_required_on_update,
        selectable: b.selectable,
        acceptanceText: b.acceptance_text,
        position: nextPosition(associatedTypes),
      })
      .onConflictDoNothing({ target: associatedTypes.name })
      .returning();
    if (!row) throw duplicate('an associated type', b.name);
    await audit(tx, actorId, 'create', 'associated_type', row.name, changed({}, exceptName(b)));
    return row;
  });
  referenceCache(db).clear();
  return row;
}

/** Changes an associated type's label, flags or acceptance text; 404 when none is named so. */
export async function updateAssociatedType(db: Db, actorId: number, name: string, body: AssociatedTypePatchBody): Promise<AssociatedType> {
  const b = AssociatedTypePatchBodySchema.parse(body);
  const key = upper(name);
  const row = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(associatedTypes).where(eq(associatedTypes.name, key)).for('update');
    if (!current) throw unknown('associated type', key);
    const detail = changed(associatedTypeJson(current), b);
    if (!Object.keys(detail).length) return current;
    const [row] = await tx
      .update(associatedTypes)
      .set({
        ...(b.label !== undefined && { label: b.label }),
        ...(b.approval_required !== undefined && { approvalRequired: b.approval_required }),
        ...(b.approval_required_on_update !== undefined && { approvalRequiredOnUpdate: b.approval_required_on_update }),
        ...(b.selectable !== undefined && { selectable: b.selectable }),
        ...(b.acceptance_text !== undefined && { acceptanceText: b.acceptance_text }),
        timeUpdated: sql`now()`,
      })
      .where(eq(associatedTypes.name, key))
      .returning();
    await audit(tx, actorId, 'update', 'associated_type', key, detail);
    return row ?? current;
  });
  referenceCache(db).clear();
  return row;
}

/**
 * A centre that needs approval brings the associated type of its name onto a profile (lib/profiles/input.ts), whose
 * approvers approve its samples: without that type, picking the centre would ask nobody.
 */
async function refuseApprovalWithoutType(tx: Db, name: string) {
  const [type] = await tx.select({ name: associatedTypes.name }).from(associatedTypes).where(eq(associatedTypes.name, name));
  if (!type) {
    throw fieldInvalid(
      'approval_required',
      `A centre that needs approval is approved by the approvers of the associated type of its name: add the associated type ${name} first.`,
    );
  }
}

/** Adds a sequencing centre; 409 when the name is taken. */
export async function createSequencingCentre(db: Db, actorId: number, body: NewSequencingCentreBody): Promise<SequencingCentre> {
  const b = NewSequencingCentreBodySchema.parse(body);
  const row = await db.transaction(async (tx) => {
    if (b.approval_required) await refuseApprovalWithoutType(tx, b.name);
    const [row] = await tx
      .insert(sequencingCentres)
      .values({
        name: b.name,
        label: b.label,
        approvalRequired: b.approval_required,
        contacts: b.contacts,
        selectable: b.selectable,
        position: nextPosition(sequencingCentres),
      })
      .onConflictDoNothing({ target: sequencingCentres.name })
      .returning();
    if (!row) throw duplicate('a sequencing centre', b.name);
    await audit(tx, actorId, 'create', 'sequencing_centre', row.name, changed({}, exceptName(b)));
    return row;
  });
  referenceCache(db).clear();
  return row;
}

/** Changes a centre's label, approval, contacts or whether it is offered; 404 when none is named so. */
export async function updateSequencingCentre(
  db: Db,
  actorId: number,
  name: string,
  body: SequencingCentrePatchBody,
): Promise<SequencingCentre> {
  const b = SequencingCentrePatchBodySchema.parse(body);
  const key = upper(name);
  const row = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(sequencingCentres).where(eq(sequencingCentres.name, key)).for('update');
    if (!current) throw unknown('sequencing centre', key);
    if (b.approval_required && !current.approvalRequired) await refuseApprovalWithoutType(tx, key);
    const detail = changed(sequencingCentreJson(current), b);
    if (!Object.keys(detail).length) return current;
    const [row] = await tx
      .update(sequencingCentres)
      .set({
        ...(b.label !== undefined && { label: b.label }),
        ...(b.approval_required !== undefined && { approvalRequired: b.approval_required }),
        ...(b.contacts !== undefined && { contacts: b.contacts }),
        ...(b.selectable !== undefined && { selectable: b.selectable }),
        timeUpdated: sql`now()`,
      })
      .where(eq(sequencingCentres.name, key))
      .returning();
    await audit(tx, actorId, 'update', 'sequencing_centre', key, detail);
    return row ?? current;
  });
  referenceCache(db).clear();
  return row;
}
