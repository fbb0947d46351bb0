import { RepositoryProtocolError } from '../errors';
import { arrayOf, attrOf, childOf, createXmlParser, textOf } from './xml';

/**
 * ENA's RECEIPT (docs/repositories.md §3): success decided only by the `success` attribute; one element per object with
 * its accession by alias; MESSAGES in both the pre-2025 wording and the BioSamples JSON-schema wording.
 */

export const RECEIPT_OBJECT_TYPES = ['PROJECT', 'STUDY', 'SAMPLE', 'EXPERIMENT', 'RUN', 'ANALYSIS', 'SUBMISSION'] as const;
export type ReceiptObjectType = (typeof RECEIPT_OBJECT_TYPES)[number];

export interface ReceiptObject {
  type: ReceiptObjectType;
  alias: string;
  /** ERS… (sample), PRJEB… (project), ERX…, ERR…, ERA… (submission); absent when the submission failed */
  accession?: string;
  /** PRIVATE or PUBLIC */
  status?: string;
  /** as ENA writes it, with a zone offset: 2024-07-12+01:00 */
  holdUntilDate?: string;
  extIds: { accession: string; type: string }[];
  /** SAMPLE: the BioSamples accession (SAMEA…), the one to publish */
  biosampleAccession?: string;
  /** PROJECT: the study accession (ERP…) */
  studyAccession?: string;
}

export type MessageLevel = 'ERROR' | 'WARNING' | 'INFO';

export interface ReceiptMessage {
  level: MessageLevel;
  text: string;
  /** what the text says, as far as we can tell */
  kind: 'alias_exists' | 'checklist' | 'other';
  /** alias_exists: the object's type and alias, and its accession when ENA gives it (new wording) */
  objectType?: ReceiptObjectType;
  alias?: string;
  accession?: string;
  /** checklist: the sample (alias) and attribute concerned, and ENA's reason */
  sample?: string;
  attribute?: string;
  reason?: string;
}

/** An object ENA already holds under that alias: the job should switch to MODIFY or fetch its RECEIPT. */
export interface ExistingObject {
  type: ReceiptObjectType;
  alias: string;
  accession?: string;
}

/**
 * accepted: success="true". alias_exists: refused only because objects already exist (a repeated ADD).
 * rejected: refused for any other reason.
 */
export type ReceiptOutcome = 'accepted' | 'alias_exists' | 'rejected';

export interface EnaReceipt {
  success: boolean;
  outcome: ReceiptOutcome;
  receiptDate?: string;
  submissionFile?: string;
  /** the SUBMISSION element (accession ERA…) */
  submission?: ReceiptObject;
  /** every object element except SUBMISSION, in receipt order */
  objects: ReceiptObject[];
  /** objects by type and alias */
  byAlias: Record<ReceiptObjectType, Record<string, ReceiptObject>>;
  /** ADD, MODIFY, HOLD, RELEASE, … as applied */
  actions: string[];
  messages: ReceiptMessage[];
  errors: string[];
  infos: string[];
  existing: ExistingObject[];
  /** a receipt of ENA's test server ("This submission is a TEST submission …") */
  test: boolean;
  /** the receipt as received, for the submission's record */
  xml: string;
}

const parser = createXmlParser((name, path) => {
  const parent = path.split('.').slice(0, -1).join('.');
  if (parent === 'RECEIPT') return (RECEIPT_OBJECT_TYPES as readonly string[]).includes(name) || name === 'ACTIONS';
  if (parent === 'RECEIPT.MESSAGES') return true;
  return name === 'EXT_ID';
});

const OBJECT_WORDS: Record<string, ReceiptObjectType> = {
  project: 'PROJECT',
  study: 'STUDY',
  sample: 'SAMPLE',
  experiment: 'EXPERIMENT',
  run: 'RUN',
  analysis: 'ANALYSIS',
  submission: 'SUBMISSION',
};

// new: In sample, alias: "x". The object being added already exists in the submission account with accession: "ERS1".
// old: In submission, alias:"x", accession:"". The object being added already exists in the submission account.
const ALIAS_EXISTS =
  /In (\w+),[ \t]*alias:[ \t]*"([^"]*)"(?:,[ \t]*accession:[ \t]*"([^"]*)")?\.?[ \t]*The object being added already exists in the submission account(?: with accession:[ \t]*"([^"]+)")?/i;
const NEW_CHECKLIST = /^Sample:([^;]*);(?:\s*Attribute:([^;]*);)?\s*Reason:([\s\S]*)$/i;
const OLD_ERROR_AT = /^Error at (.+?)\.\s+([\s\S]*)$/i;
const OLD_FIELD = /(?:for )?field\s+"([^"]+)"/i;
const OLD_MISSING = /^Missing (?:mandatory|recommended) field\s+"([^"]+)"/i;

/** Reads one MESSAGES entry: alias conflicts and checklist failures (old and new wording), else plain text. */
export function classifyMessage(level: MessageLevel, text: string): ReceiptMessage {
  const base: ReceiptMessage = { level, text, kind: 'other' };
  const exists = ALIAS_EXISTS.exec(text);
  if (exists) {
    const objectType = OBJECT_WORDS[(exists[1] ?? '').toLowerCase()];
    const accession = exists[4] || exists[3] || undefined;
    return { ...base, kind: 'alias_exists', objectType, alias: exists[2], accession };
  }
  const modern = NEW_CHECKLIST.exec(text);
  if (modern)
    return { ...base, kind: 'checklist', sample: modern[1]?.trim(), attribute: modern[2]?.trim() || undefined, reason: modern[3]?.trim() };
  const missing = OLD_MISSING.exec(text);
  if (missing) return { ...base, kind: 'checklist', attribute: missing[1], reason: text };
  const old = OLD_ERROR_AT.exec(text);
  if (old) return { ...base, kind: 'checklist', sample: old[1], attribute: OLD_FIELD.exec(old[2] ?? '')?.[1], reason: old[2]?.trim() };
  return base;
}

function readObject(type: ReceiptObjectType, node: unknown): ReceiptObject {
  const extIds = arrayOf(childOf(node, 'EXT_ID'))
    .map((e) => ({ accession: attrOf(e, 'accession') ?? '', type: attrOf(e, 'type') ?? '' }))
    .filter((e) => e.accession);
  const obj: ReceiptObject = { type, alias: attrOf(node, 'alias') ?? '', extIds };
  const accession = attrOf(node, 'accession');
  if (accession) obj.accession = accession;
  const status = attrOf(node, 'status');
  if (status) obj.status = status;
  const hold = attrOf(node, 'holdUntilDate');
  if (hold) obj.holdUntilDate = hold;
  const biosample = extIds.find((e) => e.type.toLowerCase() === 'biosample');
  if (biosample) obj.biosampleAccession = biosample.accession;
  const study = extIds.find((e) => e.type.toLowerCase() === 'study');
  if (study) obj.studyAccession = study.accession;
  return obj;
}

const emptyByAlias = (): Record<ReceiptObjectType, Record<string, ReceiptObject>> =>
  Object.fromEntries(RECEIPT_OBJECT_TYPES.map((t) => [t, {}])) as Record<ReceiptObjectType, Record<string, ReceiptObject>>;

/** Parses a RECEIPT document; anything else (an HTML error page, JSON) is a RepositoryProtocolError. */
export function parseReceipt(xml: string): EnaReceipt {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new RepositoryProtocolError('ena', `ENA answered with unreadable XML: ${(err as Error).message}`, xml);
  }
  const root = childOf(doc, 'RECEIPT');
  if (!root || typeof root !== 'object') throw new RepositoryProtocolError('ena', 'ENA answered without a RECEIPT', xml);
  const successAttr = attrOf(root, 'success');
  if (successAttr === undefined) throw new RepositoryProtocolError('ena', 'ENA RECEIPT has no success attribute', xml);

  const byAlias = emptyByAlias();
  const objects: ReceiptObject[] = [];
  let submission: ReceiptObject | undefined;
  for (const type of RECEIPT_OBJECT_TYPES) {
    for (const node of arrayOf(childOf(root, type))) {
      const obj = readObject(type, node);
      if (type === 'SUBMISSION') submission ??= obj;
      else objects.push(obj);
      if (obj.alias) byAlias[type][obj.alias] = obj;
    }
  }

  const messagesNode = childOf(root, 'MESSAGES');
  const messages: ReceiptMessage[] = [];
  for (const level of ['ERROR', 'WARNING', 'INFO'] as const) {
    for (const m of arrayOf(childOf(messagesNode, level))) messages.push(classifyMessage(level, textOf(m).trim()));
  }
  const errors = messages.filter((m) => m.level === 'ERROR').map((m) => m.text);
  const infos = messages.filter((m) => m.level === 'INFO').map((m) => m.text);
  const existing: ExistingObject[] = messages
    .filter((m) => m.level === 'ERROR' && m.kind === 'alias_exists' && m.objectType && m.alias !== undefined)
    .map((m) => ({
      type: m.objectType as ReceiptObjectType,
      alias: m.alias as string,
      ...(m.accession ? { accession: m.accession } : {}),
    }));

  const success = successAttr.trim().toLowerCase() === 'true';
  const errorMessages = messages.filter((m) => m.level === 'ERROR');
  const onlyConflicts = errorMessages.length > 0 && errorMessages.every((m) => m.kind === 'alias_exists');
  return {
    success,
    outcome: success ? 'accepted' : onlyConflicts ? 'alias_exists' : 'rejected',
    receiptDate: attrOf(root, 'receiptDate'),
    submissionFile: attrOf(root, 'submissionFile'),
    submission,
    objects,
    byAlias,
    actions: arrayOf(childOf(root, 'ACTIONS'))
      .map((a) => textOf(a).trim())
      .filter(Boolean),
    messages,
    errors,
    infos,
    existing,
    test: infos.some((i) => /TEST submission/i.test(i)),
    xml,
  };
}
