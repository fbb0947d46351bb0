import { asc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { checklists, type Repository } from '@/db/schema';
import { NotFound } from '@/lib/errors';
import { requireSchema } from './definitions';
import type { ComponentDefinition, FieldDefinition } from './types';

/** A term as one component defines it, and which checklists use it there. */
export interface TermUse {
  component: string;
  field: FieldDefinition;
  /** checklist_id → mandatory */
  checklists: Record<string, boolean>;
}

export interface ComponentPage {
  key: string;
  name: string;
  description: string;
  repositories: Partial<Record<Repository, string>>;
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
  return { schema, rows: rows.map((r) => ({ checklistId: r.checklistId, components: r.fields as ComponentDefinition[] })) };
}

/**
 * What the service's own term IRIs (used in JSON-LD exports for terms without an external IRI) resolve to: every
 * definition of the term in the schema, per component. 404 for a term the schema does not have.
 */
export async function describeTerm(db: Db, schemaName: string, termName: string): Promise<TermUse[]> {
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
  return [...uses.values()];
}

/** What a component IRI resolves to. */
export async function describeComponent(db: Db, schemaName: string, key: string): Promise<ComponentPage> {
  const { schema, rows } = await schemaComponents(db, schemaName);
  let page: ComponentPage | undefined;
  for (const { checklistId, components } of rows) {
    const c = components.find((x) => x.key === key);
    if (!c) continue;
    page ??= { key: c.key, name: c.name, description: c.description, repositories: c.repositories, checklists: {} };
    page.checklists[checklistId] = c.fields.map((f) => f.termName);
  }
  if (!page) throw NotFound(`No component '${key}' in schema ${schema}`);
  return page;
}
