import { type Incoming, json, type Outgoing } from './http';

/**
 * EBI's Ontology Lookup Service (OLS4) search in memory: `GET /search?q=…&ontology=…&exact=true&queryFields=…&
 * allChildrenOf=<IRI>[,<IRI>…]&fieldList=…&rows=…` answers Solr's `{responseHeader, response: {numFound, start, docs}}`
 * with the terms of a small fixture of real terms (their CURIEs, labels and synonyms as the ontologies publish them):
 * a cell-type branch of the Cell Ontology and a microscopy branch of the Biological Imaging Methods Ontology. A term
 * is a child of another when that one is among its ancestors, as OLS's is-a closure answers.
 */

interface Term {
  curie: string;
  label: string;
  synonyms?: string[];
  /** the CURIEs of its ancestors, nearest first */
  ancestors: string[];
}

const CELL = 'CL:0000000';
const MICROSCOPY = 'FBbi:00000222';

export const OLS_TERMS: Term[] = [
  { curie: CELL, label: 'cell', ancestors: [] },
  { curie: 'CL:0000084', label: 'T cell', synonyms: ['T-lymphocyte', 'T lymphocyte', 'T-cell'], ancestors: ['CL:0000542', CELL] },
  { curie: 'CL:0000236', label: 'B cell', synonyms: ['B-lymphocyte', 'B lymphocyte', 'B-cell'], ancestors: ['CL:0000542', CELL] },
  { curie: 'CL:0000542', label: 'lymphocyte', ancestors: [CELL] },
  { curie: 'CL:0000235', label: 'macrophage', synonyms: ['histiocyte'], ancestors: [CELL] },
  { curie: 'CL:0000540', label: 'neuron', synonyms: ['nerve cell'], ancestors: [CELL] },
  { curie: 'CL:0000057', label: 'fibroblast', ancestors: [CELL] },
  { curie: 'CL:0001064', label: 'malignant cell', synonyms: ['cancer cell'], ancestors: [CELL] },
  { curie: MICROSCOPY, label: 'microscopy', ancestors: [] },
  { curie: 'FBbi:00000251', label: 'confocal microscopy', ancestors: [MICROSCOPY] },
  { curie: 'FBbi:00000243', label: 'bright-field microscopy', ancestors: [MICROSCOPY] },
  // a term of another ontology, whose label a cell_type column might hold by mistake
  { curie: 'UBERON:0002107', label: 'liver', ancestors: [] },
];

const iriOf = (curie: string) => `http://purl.obolibrary.org/obo/${curie.replace(':', '_')}`;
const ontologyOf = (curie: string) => curie.split(':')[0]!.toLowerCase();

function doc(t: Term, fields: string[] | null) {
  const all: Record<string, unknown> = {
    id: `${ontologyOf(t.curie)}:class:${iriOf(t.curie)}`,
    iri: iriOf(t.curie),
    short_form: t.curie.replace(':', '_'),
    obo_id: t.curie,
    label: t.label,
    ontology_name: ontologyOf(t.curie),
    ontology_prefix: t.curie.split(':')[0]!.toUpperCase(),
    type: 'class',
    ...(t.synonyms && { synonym: t.synonyms }),
  };
  return fields ? Object.fromEntries(Object.entries(all).filter(([k]) => fields.includes(k))) : all;
}

export class OlsState {
  /** every search asked, in order: (q, ontology) */
  readonly asked: { q: string; ontology: string | null }[] = [];
}

export function handleOls(state: OlsState, incoming: Incoming, rest: string): Outgoing {
  if (rest !== '/search') return json(404, { error: 'Not Found', status: 404 });
  if (incoming.method !== 'GET') return json(405, { error: 'Method Not Allowed', status: 405 });
  const p = incoming.url.searchParams;
  const q = (p.get('q') ?? '').trim();
  if (!q) return json(400, { error: 'Bad Request', message: 'q is required', status: 400 });
  const ontology = p.get('ontology')?.toLowerCase() ?? null;
  state.asked.push({ q, ontology });
  const exact = p.get('exact') === 'true';
  const fields = (p.get('queryFields') ?? 'label,synonym').split(',').map((f) => f.trim());
  const under = (p.get('allChildrenOf') ?? '')
    .split(',')
    .map((i) => i.trim())
    .filter(Boolean);
  const rows = Math.max(0, Number(p.get('rows') ?? 10));
  const want = q.toLowerCase();
  const matches = (text: string) => (exact ? text.toLowerCase() === want : text.toLowerCase().includes(want));
  const found = OLS_TERMS.filter(
    (t) =>
      (!ontology || ontologyOf(t.curie) === ontology) &&
      (!under.length || t.ancestors.some((a) => under.includes(iriOf(a)))) &&
      ((fields.includes('label') && matches(t.label)) ||
        (fields.includes('synonym') && (t.synonyms ?? []).some(matches)) ||
        (fields.includes('obo_id') && matches(t.curie)) ||
        (fields.includes('short_form') && matches(t.curie.replace(':', '_')))),
  );
  const list =
    p
      .get('fieldList')
      ?.split(',')
      .map((f) => f.trim()) ?? null;
  return json(200, {
    responseHeader: { status: 0, QTime: 1, params: Object.fromEntries(p) },
    response: { numFound: found.length, start: 0, docs: found.slice(0, rows).map((t) => doc(t, list)) },
  });
}
