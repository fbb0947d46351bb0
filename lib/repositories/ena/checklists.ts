import type { ChecklistField, ChecklistKind, ChecklistSource, FieldRole, FieldType, Requirement, SampleChecklist } from '../contract';
import { RepositoryProtocolError } from '../errors';
import { basicAuth, type HttpOptions, httpRequest, joinUrl, plumbingOf } from '../http';
import { webinRoot } from './webin-url';
import { arrayOf, attrOf, childOf, createXmlParser, textOf } from './xml';

/**
 * ENA's checklists as its reports service publishes them: `GET {Webin}/report/checklists/xml/*?type=sample` (or
 * `type=sequence`) answers a CHECKLIST_SET (ENA.checklist.xsd), each CHECKLIST with FIELD_GROUPs of FIELDs: NAME (or
 * only LABEL), DESCRIPTION, FIELD_TYPE (TEXT_FIELD with an optional REGEX_VALUE, TEXT_CHOICE_FIELD with TEXT_VALUEs,
 * TAXON_FIELD), UNITS, MANDATORY (mandatory, recommended, optional) and MULTIPLICITY. COPO's own checklists come in
 * the same format (db/seed/data/sample-checklists).
 */

export interface ChecklistReportsOptions extends Omit<HttpOptions, 'service'> {
  /** the Webin REST root (ENA_WEBIN_URL) */
  baseUrl: string;
  /** the Webin account, when there is one: the reports service answers the public checklists without it */
  username?: string;
  password?: string;
}

/** Every checklist of a kind ENA publishes. */
export async function fetchEnaChecklists(options: ChecklistReportsOptions, kind: ChecklistKind): Promise<SampleChecklist[]> {
  const url = `${joinUrl(webinRoot(options.baseUrl), 'report/checklists/xml/*')}?type=${kind}`;
  const res = await httpRequest(plumbingOf(options, 'ena'), {
    method: 'GET',
    url,
    headers: {
      accept: 'application/xml',
      ...(options.username && options.password && { authorization: basicAuth(options.username, options.password) }),
    },
  });
  const checklists = parseChecklistSet(res.body, 'ena');
  if (!checklists.length)
    throw new RepositoryProtocolError('ena', `ENA's reports service listed no ${kind} checklist`, res.body.slice(0, 2000));
  return checklists.filter((c) => c.kind === kind);
}

const ARRAYS = new Set(['CHECKLIST', 'FIELD_GROUP', 'FIELD', 'TEXT_VALUE', 'UNIT', 'SYNONYM']);
const parser = createXmlParser((name) => ARRAYS.has(name));

const text = (node: unknown, name: string): string => textOf(childOf(node, name)).trim();

const REQUIREMENTS = new Set<Requirement>(['mandatory', 'recommended', 'optional']);

function fieldOf(node: unknown, group: string): ChecklistField | null {
  const label = text(node, 'LABEL');
  const name = text(node, 'NAME') || label;
  if (!name) return null;
  const typeNode = childOf(node, 'FIELD_TYPE');
  let type: FieldType = 'text';
  let regex: string | undefined;
  let choices: string[] | undefined;
  const choiceNode = childOf(typeNode, 'TEXT_CHOICE_FIELD');
  if (choiceNode !== undefined) {
    type = 'choice';
    choices = arrayOf(childOf(choiceNode, 'TEXT_VALUE'))
      .map((v) => text(v, 'VALUE'))
      .filter(Boolean);
  } else if (childOf(typeNode, 'TAXON_FIELD') !== undefined) {
    type = 'taxon';
  } else if (childOf(typeNode, 'ONTOLOGY') !== undefined || childOf(typeNode, 'ONTOLOGY_FIELD') !== undefined) {
    type = 'ontology';
  } else {
    regex = text(childOf(typeNode, 'TEXT_FIELD'), 'REGEX_VALUE') || undefined;
  }
  const units = arrayOf(childOf(childOf(node, 'UNITS'), 'UNIT'))
    .map((u) => textOf(u).trim())
    .filter(Boolean);
  // COPO's own field types for the columns every sheet has
  const role: FieldRole | undefined =
    childOf(typeNode, 'TAXON_ID_FIELD') !== undefined
      ? 'taxon_id'
      : childOf(typeNode, 'SCIENTIFIC_NAME_FIELD') !== undefined
        ? 'scientific_name'
        : undefined;
  const mandatory = text(node, 'MANDATORY').toLowerCase() as Requirement;
  const synonyms = arrayOf(childOf(node, 'SYNONYM'))
    .map((s) => textOf(s).trim())
    .filter(Boolean);
  return {
    name,
    label: label || name,
    description: text(node, 'DESCRIPTION'),
    group,
    type,
    ...(regex !== undefined && { regex }),
    ...(choices?.length && { choices }),
    ...(units.length && { units }),
    requirement: REQUIREMENTS.has(mandatory) ? mandatory : 'optional',
    multiplicity: text(node, 'MULTIPLICITY').toLowerCase() === 'multiple' ? 'multiple' : 'single',
    ...(synonyms.length && { synonyms }),
    ...(role && { role }),
  };
}

/**
 * The checklists of a CHECKLIST_SET document, each with its fields in the document's order, as the document gives them
 * (a name given twice stays twice: lib/sample-checklists/normalise.ts decides). Throws when the text is not such a
 * document.
 */
export function parseChecklistSet(xml: string, source: ChecklistSource): SampleChecklist[] {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new RepositoryProtocolError('ena', `not a CHECKLIST_SET: ${(err as Error).message}`, xml.slice(0, 2000));
  }
  const set = childOf(doc, 'CHECKLIST_SET');
  if (set === undefined) throw new RepositoryProtocolError('ena', 'the answer is not a CHECKLIST_SET', xml.slice(0, 2000));
  return arrayOf(childOf(set, 'CHECKLIST')).flatMap((c): SampleChecklist[] => {
    const identifiers = childOf(c, 'IDENTIFIERS');
    const id = (attrOf(c, 'accession') ?? text(identifiers, 'PRIMARY_ID')).trim();
    if (!id) return [];
    const descriptor = childOf(c, 'DESCRIPTOR');
    const fields: ChecklistField[] = [];
    for (const g of arrayOf(childOf(descriptor, 'FIELD_GROUP'))) {
      const group = text(g, 'NAME');
      for (const f of arrayOf(childOf(g, 'FIELD'))) {
        const field = fieldOf(f, group);
        if (field) fields.push(field);
      }
    }
    const type = (attrOf(c, 'checklistType') ?? '').toLowerCase();
    return [
      {
        id,
        kind: type === 'sequence' ? 'sequence' : 'sample',
        source,
        enaChecklistId: text(identifiers, 'ENA_CHECKLIST_ID') || id,
        name: text(descriptor, 'NAME') || id,
        label: text(descriptor, 'LABEL') || id,
        description: text(descriptor, 'DESCRIPTION'),
        authority: text(descriptor, 'AUTHORITY'),
        fields,
      },
    ];
  });
}
