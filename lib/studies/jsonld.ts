import type { FieldDefinition } from '@/lib/checklists/contract';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { trimEndOf } from '@/lib/values/text';
import type { StudyComponents } from './validate';

const ABSOLUTE_IRI = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Where the service's own vocabulary lives for a schema: terms and components without an external IRI. */
export const vocabularyBase = (baseUrl: string, schemaName: string) => `${trimEndOf(baseUrl, '/')}/api/profiles/schema/${schemaName}/`;

/**
 * A term's IRI: its term_reference when that is an IRI, else the service's term page. Ontology terms carry the
 * ancestor CURIE of their values (e.g. CL:0000000) there, which is not the term itself, so they take the page too.
 */
export function termIri(vocab: string, f: FieldDefinition): string {
  const ref = f.reference?.trim();
  if (f.type !== 'ontology' && ref && ABSOLUTE_IRI.test(ref)) return ref;
  return `${vocab}terms/${encodeURIComponent(f.termName)}`;
}

export const componentIri = (vocab: string, key: string) => `${vocab}components/${encodeURIComponent(key)}`;

/**
 * The study as compacted JSON-LD (docs/studies-and-checklists.md §10): one key per component holding its rows, each row
 * typed by its component and keyed by term name. The context is inline (nothing to fetch) and scoped per component,
 * because one term name can mean different things in two components (REMBI's `description`).
 */
export function studyJsonLd(
  def: ChecklistDefinition,
  components: StudyComponents,
  opts: { vocab: string; id: string },
): Record<string, unknown> {
  const context: Record<string, unknown> = { '@version': 1.1 };
  const body: Record<string, unknown> = {};
  for (const component of def.components) {
    const rows = components[component.key];
    if (!rows?.length) continue;
    const scoped: Record<string, { '@id': string }> = {};
    for (const f of component.fields) scoped[f.termName] = { '@id': termIri(opts.vocab, f) };
    context[component.key] = { '@id': componentIri(opts.vocab, component.key), '@container': '@set', '@context': scoped };
    // a term named like its component (expression_data_file) shadows the component's name inside the rows
    const shadowed = component.fields.some((f) => f.termName === component.key);
    const type = shadowed ? componentIri(opts.vocab, component.key) : component.key;
    body[component.key] = rows.map((row) => {
      const node: Record<string, string> = { '@type': type };
      for (const f of component.fields) {
        const value = row[f.termName];
        if (value !== undefined) node[f.termName] = value;
      }
      return node;
    });
  }
  return { '@context': context, '@id': opts.id, ...body };
}
