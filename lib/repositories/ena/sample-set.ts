import { RepositoryProtocolError } from '../errors';
import type { ReceiptObject } from './receipt';
import { arrayOf, attrOf, childOf, createXmlParser, textOf } from './xml';

const parser = createXmlParser((name) => name === 'SAMPLE' || name === 'EXTERNAL_ID');

/**
 * The samples of a SAMPLE_SET document as a receipt would name them: alias, ENA accession (ERS…) and BioSample
 * accession (SAMEA…). Webin's reports service answers the account's samples in this shape.
 */
export function parseSampleSet(xml: string): ReceiptObject[] {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new RepositoryProtocolError('ena', `ENA answered a sample report with XML that does not parse: ${(err as Error).message}`, xml);
  }
  const set = childOf(doc, 'SAMPLE_SET');
  if (set === undefined) throw new RepositoryProtocolError('ena', 'ENA answered a sample report without a SAMPLE_SET', xml);
  return arrayOf(childOf(set, 'SAMPLE')).flatMap((sample): ReceiptObject[] => {
    const ids = childOf(sample, 'IDENTIFIERS');
    const alias = attrOf(sample, 'alias');
    const accession = attrOf(sample, 'accession') ?? (textOf(childOf(ids, 'PRIMARY_ID')).trim() || undefined);
    if (!alias || !accession) return [];
    const biosample = arrayOf(childOf(ids, 'EXTERNAL_ID'))
      .map((e) => (/biosample/i.test(attrOf(e, 'namespace') ?? '') ? textOf(e).trim() : ''))
      .find(Boolean);
    return [
      {
        type: 'SAMPLE',
        alias,
        accession,
        extIds: biosample ? [{ accession: biosample, type: 'biosample' }] : [],
        ...(biosample && { biosampleAccession: biosample }),
      },
    ];
  });
}
