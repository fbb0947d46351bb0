import type { ChecklistSummary } from './checklists';
import type { Checklist, ComponentPage, SchemaName, TermPage } from './contract';
import type { ComponentUse, TermUse } from './terms';

export const checklistJson = (c: ChecklistSummary): Checklist => ({
  checklist_id: c.checklistId,
  name: c.name,
  description: c.description,
  standard: c.standard,
  technology: c.technology,
});

export const termPageJson = (schema: SchemaName, term: string, uses: TermUse[]): TermPage => ({
  schema_name: schema,
  term_name: term,
  definitions: uses.map(({ component, field: f, checklists }) => ({
    component,
    label: f.label,
    description: f.description,
    example: f.example,
    type: f.type,
    cardinality: f.cardinality,
    identifier: f.identifier,
    ...(f.allowedValues && { allowed_values: f.allowedValues }),
    ...(f.regex && { pattern: f.regex, error_message: f.errorMessage ?? '' }),
    ...(f.referencedComponent && { referenced_component: f.referencedComponent }),
    // an ontology term's reference is the root of its values, not the term's own IRI
    ...(f.reference && (f.type === 'ontology' ? { ontology_root: f.reference } : { reference: f.reference })),
    checklists: Object.fromEntries(Object.entries(checklists).map(([id, m]) => [id, m ? ('mandatory' as const) : ('optional' as const)])),
  })),
});

export const componentPageJson = ({ schema, component, checklists }: ComponentUse): ComponentPage => ({
  schema_name: schema,
  component: component.key,
  name: component.name,
  description: component.description,
  repositories: component.repositories,
  checklists,
});
