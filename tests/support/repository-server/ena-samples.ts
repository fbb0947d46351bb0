import { XMLBuilder } from 'fast-xml-parser';
import type { EnaState, StoredObject } from './ena';
import { child, textOf } from './ena-xml';
import { type Incoming, type Outgoing, text, xml } from './http';

/**
 * ENA's sample look-ups: the Webin drop-box (`GET /ena/submit/drop-box/samples/{accession}`, the account's own
 * samples, private ones too) and the browser API (`GET /ena/browser/api/xml/{accession}`, public samples only),
 * both answering a SAMPLE_SET document with the sample's identifiers, title and SAMPLE_NAME.
 */

export interface PublicSample {
  biosampleAccession: string;
  enaAccession: string;
  taxonId: string;
  scientificName: string;
  title: string;
}

/** Public samples other submitters registered; the first is the accession the schema workbooks use as their example. */
export const DEFAULT_PUBLIC_SAMPLES: PublicSample[] = [
  {
    biosampleAccession: 'SAMEA12907823',
    enaAccession: 'ERS11476523',
    taxonId: '8036',
    scientificName: 'Salvelinus alpinus',
    title: 'Arctic charr gill tissue',
  },
  {
    biosampleAccession: 'SAMEA7524530',
    enaAccession: 'ERS5284361',
    taxonId: '9606',
    scientificName: 'Homo sapiens',
    title: 'Human PBMC donor 1',
  },
];

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });

function sampleSet(s: PublicSample, extra: { alias?: string; center?: string } = {}): string {
  return samplesSet([{ sample: s, ...extra }]);
}

function samplesSet(list: { sample: PublicSample; alias?: string; center?: string }[]): string {
  const doc = {
    SAMPLE_SET: {
      SAMPLE: list.map(({ sample: s, ...extra }) => ({
        '@_accession': s.enaAccession,
        ...(extra.alias ? { '@_alias': extra.alias } : {}),
        ...(extra.center ? { '@_center_name': extra.center } : {}),
        IDENTIFIERS: {
          PRIMARY_ID: s.enaAccession,
          EXTERNAL_ID: { '@_namespace': 'BioSample', '#text': s.biosampleAccession },
        },
        TITLE: s.title,
        SAMPLE_NAME: { TAXON_ID: s.taxonId, SCIENTIFIC_NAME: s.scientificName },
      })),
    },
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc) as string}`;
}

/** A sample an account submitted, in the shape of the public table (ENA fills the scientific name from the taxon). */
function asPublic(state: EnaState, o: StoredObject): PublicSample {
  const name = child(o.node, 'SAMPLE_NAME');
  const taxonId = textOf(child(name, 'TAXON_ID')).trim();
  return {
    biosampleAccession: o.extId?.accession ?? '',
    enaAccession: o.accession,
    taxonId,
    scientificName: textOf(child(name, 'SCIENTIFIC_NAME')).trim() || (state.taxa.get(taxonId)?.scientificName ?? ''),
    title: textOf(child(o.node, 'TITLE')).trim(),
  };
}

const matches = (o: StoredObject, accession: string) =>
  o.type === 'SAMPLE' && o.status !== 'CANCELLED' && (o.accession === accession || o.extId?.accession === accession);

/** `GET /drop-box/samples/{accession}` for an authenticated account. */
export function dropBoxSample(state: EnaState, account: string, incoming: Incoming, accession: string): Outgoing {
  if (incoming.method !== 'GET') return text(405, 'Method not allowed');
  const own = state.objects(account).find((o) => matches(o, accession));
  if (!own) return text(404, `Sample ${accession} not found in the submission account.`);
  return xml(200, sampleSet(asPublic(state, own), { alias: own.alias }));
}

/** The lot the stand-in answers in one report; the service asks in lots of this size (lib/repositories/ena/client.ts). */
const REPORT_LOT = 100;

/**
 * `GET /report/samples/xml/{id},{id},…` of Webin's reports service: the account's own samples (private ones too) by
 * ENA or BioSample accession, as a SAMPLE_SET with each sample's alias. Accessions the account does not hold are
 * left out. More than REPORT_LOT ids is refused, so a client that asks in larger lots fails here.
 */
export function reportSamples(state: EnaState, account: string, incoming: Incoming, list: string): Outgoing {
  if (incoming.method !== 'GET') return text(405, 'Method not allowed');
  const ids = list
    .split(',')
    .map((id) => decodeURIComponent(id).trim())
    .filter(Boolean);
  state.reports.push({ account, ids, at: new Date() });
  if (ids.length > REPORT_LOT) return text(400, `At most ${REPORT_LOT} accessions can be asked at once, not ${ids.length}.`);
  const own = state.objects(account);
  const found = ids.flatMap((id) => own.find((o) => matches(o, id)) ?? []);
  return xml(200, samplesSet(found.map((o) => ({ sample: asPublic(state, o), alias: o.alias }))));
}

/** `GET /xml/{accession}` of the browser API: public samples of every account, and the table of other submitters'. */
export function handleBrowser(state: EnaState, incoming: Incoming, rest: string): Outgoing {
  const m = /^\/xml\/([^/]+)$/.exec(rest);
  if (!m?.[1]) return text(404, 'Not found');
  if (incoming.method !== 'GET') return text(405, 'Method not allowed');
  const accession = decodeURIComponent(m[1]);
  const listed = state.publicSamples.find((s) => s.biosampleAccession === accession || s.enaAccession === accession);
  if (listed) return xml(200, sampleSet(listed));
  const submitted = state.objects().find((o) => matches(o, accession) && o.status === 'PUBLIC');
  if (submitted) return xml(200, sampleSet(asPublic(state, submitted)));
  return text(404, `No results for ${accession}.`);
}
