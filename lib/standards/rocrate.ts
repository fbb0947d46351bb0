import type { z } from 'zod';
import type {
  RoCrate,
  RoCrateBioSampleSchema,
  RoCrateDatasetSchema,
  RoCrateEntity,
  RoCratePersonSchema,
  RoCratePlaceSchema,
  RoCrateTaxonSchema,
} from '@/lib/standards/contract';
import { type SampleRecord, SYSTEM_KEYS } from './render';

/**
 * RO-Crate 1.2 metadata for one manifest (docs/repositories.md §7, docs/tol-manifests.md §6, docs/api-behaviour.md §3.4.4 Sensible):
 * a detached crate whose root is the manifest's URL, one BioSample entity per sample, and contextual entities for
 * the people, organisations, taxa and places the samples name. Every @id is derived from the data (svc_id, taxon id,
 * names), so the same manifest always gives the same crate, and no @id appears twice.
 */

export const RO_CRATE_CONTEXT = 'https://w3id.org/ro/crate/1.2/context';
export const RO_CRATE_SPEC = 'https://w3id.org/ro/crate/1.2';
const CC0 = 'https://creativecommons.org/publicdomain/zero/1.0/';

// Bioschemas BioSample terms are not in the RO-Crate context; everything else used here is schema.org.
const EXTRA_TERMS = {
  BioSample: 'https://bioschemas.org/BioSample',
  collector: 'https://bioschemas.org/collector',
  custodian: 'https://bioschemas.org/custodian',
  dwc: 'http://rs.tdwg.org/dwc/terms/',
};

/** Person fields and the affiliation column aligned with each (values separated by `|`). */
const PEOPLE: { field: string; affiliation: string; role: 'collector' | 'custodian' }[] = [
  { field: 'COLLECTED_BY', affiliation: 'COLLECTOR_AFFILIATION', role: 'collector' },
  { field: 'SAMPLE_COORDINATOR', affiliation: 'SAMPLE_COORDINATOR_AFFILIATION', role: 'custodian' },
  { field: 'PRESERVED_BY', affiliation: 'PRESERVER_AFFILIATION', role: 'custodian' },
  { field: 'IDENTIFIED_BY', affiliation: 'IDENTIFIER_AFFILIATION', role: 'custodian' },
];

const MISSING = new Set(['', 'NOT_COLLECTED', 'NOT_PROVIDED', 'NOT_APPLICABLE']);
const present = (v: string | undefined): v is string => v !== undefined && !MISSING.has(v.trim().toUpperCase());
const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'x';
const splitPipe = (v: string | undefined) => (v ?? '').split('|').map((s) => s.trim());
const ref = (id: string): Ref => ({ '@id': id });
const numberOrUndefined = (v: string | undefined) => (v !== undefined && /^-?\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : undefined);

export interface CrateInput {
  manifestId: string;
  /** the owning profile's title and description */
  title: string;
  description: string;
  /** public base URL of the service, without a trailing slash */
  baseUrl: string;
  /** the manifest's samples rendered in the tol standard (embargoed placeholders already left out) */
  records: SampleRecord[];
  /** what was made from the samples at ENA (public studies only), by BioSample accession */
  sequenceData?: ReadonlyMap<string, readonly CrateSequenceData[]>;
}

/** A run, assembly or annotation of a sample, by its ENA accessions. */
export interface CrateSequenceData {
  kind: 'read' | 'assembly' | 'annotation';
  name: string;
  study_accession: string;
  run_accession?: string;
  analysis_accession?: string;
}

const SEQUENCE_TYPES = { read: 'ENA run', assembly: 'ENA assembly', annotation: 'ENA sequence annotation' } as const;
const ENA_VIEW = 'https://www.ebi.ac.uk/ena/browser/view/';

type Ref = { '@id': string };
type Dataset = z.infer<typeof RoCrateDatasetSchema>;
type BioSample = z.infer<typeof RoCrateBioSampleSchema>;
type Taxon = z.infer<typeof RoCrateTaxonSchema>;
type Place = z.infer<typeof RoCratePlaceSchema>;
type Person = z.infer<typeof RoCratePersonSchema>;

/** Entities keyed by @id in insertion order, so a person or taxon met twice is one entity. */
class Graph {
  private readonly byId = new Map<string, RoCrateEntity>();
  /** Adds the entity unless one with its @id is there; each kind of entity has @ids of its own, so the one there is of its kind. */
  add<E extends RoCrateEntity>(entity: E): E {
    const existing = this.byId.get(entity['@id']) as E | undefined;
    if (existing) return existing;
    this.byId.set(entity['@id'], entity);
    return entity;
  }
  get entities(): RoCrateEntity[] {
    return [...this.byId.values()];
  }
}

const pushUnique = (list: Ref[], id: string) => {
  if (!list.some((r) => r['@id'] === id)) list.push(ref(id));
};

export function buildRoCrate(input: CrateInput): RoCrate {
  const api = `${input.baseUrl}/api`;
  const rootId = `${api}/manifest/${input.manifestId}/`;
  const graph = new Graph();
  const contributors: Ref[] = [];
  const taxa: Ref[] = [];
  const places: Ref[] = [];
  const samples: Ref[] = [];
  const placeIds = new Map<string, string>();
  const created = input.records
    .map((r) => r.time_created ?? '')
    .filter(Boolean)
    .sort();
  const updated = input.records
    .map((r) => r.time_updated ?? '')
    .filter(Boolean)
    .sort();

  graph.add({ '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', conformsTo: ref(RO_CRATE_SPEC), about: ref(rootId) });
  const root: Dataset = graph.add({
    '@id': rootId,
    '@type': 'Dataset',
    name: input.title || `Manifest ${input.manifestId}`,
    description: input.description || `Tree of Life samples of manifest ${input.manifestId}`,
    identifier: input.manifestId,
    datePublished: created[0] ?? '',
    dateModified: updated[updated.length - 1] ?? '',
    license: ref(CC0),
    contributor: contributors,
    taxonomicRange: taxa,
    spatialCoverage: places,
    mentions: samples,
  });
  graph.add({
    '@id': CC0,
    '@type': 'CreativeWork',
    name: 'CC0 1.0 Universal (CC0 1.0) Public Domain Dedication',
    identifier: 'CC0-1.0',
  });

  for (const r of input.records) {
    const svcId = r.svc_id ?? '';
    const sampleId = `${api}/sample/svc_id/${svcId}`;
    const sample: BioSample = {
      '@id': sampleId,
      '@type': 'BioSample',
      name: r.public_name || r.SPECIMEN_ID || svcId,
      identifier: svcId,
      dateCreated: r.time_created ?? '',
      additionalProperty: [],
    };
    if (present(r.biosampleAccession)) sample.sameAs = ref(`https://identifiers.org/biosample:${r.biosampleAccession}`);

    if (present(r.TAXON_ID)) {
      const taxonId = `https://identifiers.org/taxonomy:${r.TAXON_ID.trim()}`;
      const taxon: Taxon = { '@id': taxonId, '@type': 'Taxon', name: r.SCIENTIFIC_NAME ?? '', identifier: r.TAXON_ID.trim() };
      if (present(r.ORDER_OR_GROUP)) {
        const order = r.ORDER_OR_GROUP.trim();
        const orderId = `${api}/sample/sample_field/ORDER_OR_GROUP/${encodeURIComponent(order)}`;
        graph.add({ '@id': orderId, '@type': 'Taxon', name: order, taxonRank: 'order' });
        taxon.parentTaxon = ref(orderId);
      }
      graph.add(taxon);
      pushUnique(taxa, taxonId);
      sample.taxonomicRange = ref(taxonId);
    }

    if (present(r.COLLECTION_LOCATION)) {
      const name = r.COLLECTION_LOCATION.trim();
      let placeId = placeIds.get(name);
      if (!placeId) {
        placeId = `#place-${placeIds.size + 1}`;
        placeIds.set(name, placeId);
        const place: Place = { '@id': placeId, '@type': 'Place', name };
        const lat = numberOrUndefined(r.DECIMAL_LATITUDE);
        const lon = numberOrUndefined(r.DECIMAL_LONGITUDE);
        if (lat !== undefined && lon !== undefined) Object.assign(place, { latitude: lat, longitude: lon });
        graph.add(place);
        places.push(ref(placeId));
      }
      sample.locationCreated = ref(placeId);
    }

    const roles: Record<'collector' | 'custodian', Ref[]> = { collector: [], custodian: [] };
    for (const p of PEOPLE) {
      const names = splitPipe(r[p.field]);
      const affiliations = splitPipe(r[p.affiliation]);
      names.forEach((name, i) => {
        if (!present(name)) return;
        const personId = `#person-${slug(name)}`;
        const person = graph.add<Person>({ '@id': personId, '@type': 'Person', name, affiliation: [] });
        const affiliation = affiliations[i] ?? affiliations[0];
        if (present(affiliation)) {
          const orgId = `#organization-${slug(affiliation)}`;
          graph.add({ '@id': orgId, '@type': 'Organization', name: affiliation });
          pushUnique(person.affiliation, orgId);
        }
        pushUnique(contributors, personId);
        pushUnique(roles[p.role], personId);
      });
    }
    // what ENA holds made from the sample: its runs, assemblies and annotations, each by its accession
    for (const d of (present(r.biosampleAccession) && input.sequenceData?.get(r.biosampleAccession)) || []) {
      const accession = d.run_accession ?? d.analysis_accession;
      if (!accession) continue;
      const id = `${ENA_VIEW}${accession}`;
      const study = d.study_accession ? `${ENA_VIEW}${d.study_accession}` : undefined;
      graph.add({
        '@id': id,
        '@type': 'Dataset',
        name: d.name || accession,
        identifier: accession,
        additionalType: SEQUENCE_TYPES[d.kind],
        url: id,
        about: ref(sampleId),
        ...(study && { isPartOf: ref(study) }),
      });
      sample.subjectOf ??= [];
      pushUnique(sample.subjectOf, id);
    }
    if (roles.collector.length) sample.collector = roles.collector;
    if (roles.custodian.length) sample.custodian = roles.custodian;

    // every exported manifest field with a value, as a property of its own entity
    const properties = sample.additionalProperty;
    for (const [field, value] of Object.entries(r)) {
      if (SYSTEM_KEYS.includes(field) || !present(value)) continue;
      const propertyId = `#${svcId}/${field}`;
      graph.add({ '@id': propertyId, '@type': 'PropertyValue', propertyID: field, name: field, value });
      properties.push(ref(propertyId));
    }
    graph.add(sample);
    samples.push(ref(sampleId));
  }
  // an empty list property says nothing: leave it out
  for (const key of ['contributor', 'taxonomicRange', 'spatialCoverage'] as const) {
    if (!root[key]?.length) delete root[key];
  }
  return { '@context': [RO_CRATE_CONTEXT, EXTRA_TERMS], '@graph': graph.entities };
}
