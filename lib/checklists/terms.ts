import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { checklists } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import type { ComponentDefinition, FieldDefinition, SchemaName } from './contract';
import { requireSchema } from './definitions';

/** A term as one component defines it, and which checklists use it there. */
export interface TermUse {
  component: string;
  field: FieldDefinition;
  /** checklist_id → mandatory */
  checklists: Record<string, boolean>;
}

export interface ComponentUse {
  schema: SchemaName;
  component: ComponentDefinition;
  /** checklist_id → term names, in order */
  checklists: Record<string, string[]>;
}

async function schemaComponents(db: Db, schemaName: string) {
  const schema = requireSchema(schemaName);
  const rows = await db
    .select({ checklistId: checklists.checklistId, fields: checklists.fields })
    .from(checklists)
    .where(eq(checklists.schemaName, schema))
    .orderBy(asc(checklists.position));
  return { schema, rows: rows.map((r) => ({ checklistId: r.checklistId, components: r.fields })) };
}

/**
 * What the service's own term IRIs (used in JSON-LD exports for terms without an external IRI) resolve to: every
 * definition of the term in the schema, per component. 404 for a term the schema does not have.
 */
export async function describeTerm(db: Db, schemaName: string, termName: string): Promise<{ schema: SchemaName; uses: TermUse[] }> {
  const { schema, rows } = await schemaComponents(db, schemaName);
  const uses = new Map<string, TermUse>();
  for (const { checklistId, components } of rows) {
    for (const c of components) {
      const f = c.fields.find((x) => x.termName === termName);
      if (!f) continue;
      const use = uses.get(c.key) ?? { component: c.key, field: f, checklists: {} };
      use.checklists[checklistId] = f.mandatory;
      uses.set(c.key, use);
    }
  }
  if (!uses.size) throw NotFound(`No term '${termName}' in schema ${schema}`);
  return { schema, uses: [...uses.values()] };
}

/** What a component IRI resolves to. */
export async function describeComponent(db: Db, schemaName: string, key: string): Promise<ComponentUse> {
  const { schema, rows } = await schemaComponents(db, schemaName);
  let page: ComponentUse | undefined;
  for (const { checklistId, components } of rows) {
    const c = components.find((x) => x.key === key);
    if (!c) continue;
    page ??= { schema, component: c, checklists: {} };
    page.checklists[checklistId] = c.fields.map((f) => f.termName);
  }
  if (!page) throw NotFound(`No component '${key}' in schema ${schema}`);
  return page;
}
