import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * Reading what a Webin client sends: a v2 `<WEBIN>` document or v1 per-type parts, into actions and objects, with
 * the structural checks ENA's XSDs make (required elements, aliases, references, checklist attributes).
 */

export const OBJECT_TYPES = ['PROJECT', 'SAMPLE', 'EXPERIMENT', 'RUN', 'ANALYSIS'] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

export type ActionType = 'ADD' | 'MODIFY' | 'VALIDATE' | 'HOLD' | 'RELEASE' | 'CANCEL' | 'RECEIPT';
const ACTION_TYPES: readonly string[] = ['ADD', 'MODIFY', 'VALIDATE', 'HOLD', 'RELEASE', 'CANCEL', 'RECEIPT'];

export interface ParsedAction {
  type: ActionType;
  target?: string;
  holdUntilDate?: string;
}

export type Node = Record<string, unknown>;

export interface DocObject {
  type: ObjectType;
  alias: string;
  /** an accession attribute identifies the object to MODIFY */
  accession?: string;
  node: Node;
}

export interface ParsedDocument {
  actions: ParsedAction[];
  objects: DocObject[];
  /** problems that make the whole document unreadable */
  errors: string[];
}

const REPEATED = new Set([
  'PROJECT',
  'STUDY',
  'SAMPLE',
  'EXPERIMENT',
  'RUN',
  'ANALYSIS',
  'SUBMISSION',
  'ACTION',
  'CONTACT',
  'SAMPLE_ATTRIBUTE',
  'PROJECT_ATTRIBUTE',
  'EXPERIMENT_ATTRIBUTE',
  'RUN_ATTRIBUTE',
  'ANALYSIS_ATTRIBUTE',
  'PROJECT_LINK',
  'SAMPLE_LINK',
  'LOCUS_TAG_PREFIX',
  'FILE',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => REPEATED.has(name),
});

export const child = (node: unknown, name: string): unknown => (node && typeof node === 'object' ? (node as Node)[name] : undefined);
export const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
export const attr = (node: unknown, name: string): string | undefined => {
  const v = child(node, `@_${name}`);
  return typeof v === 'string' ? v : undefined;
};
export const textOf = (v: unknown): string =>
  typeof v === 'string' ? v : v && typeof v === 'object' && '#text' in v ? textOf((v as Node)['#text']) : '';
export const has = (node: unknown, name: string): boolean => child(node, name) !== undefined;

/** Parses one XML text, or says why it is not XML. */
export function parseXml(xml: string): { ok: true; doc: Node } | { ok: false; error: string } {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { ok: false, error: `Invalid XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  return { ok: true, doc: parser.parse(xml) as Node };
}

function readActions(submission: unknown, errors: string[]): ParsedAction[] {
  const actions: ParsedAction[] = [];
  for (const action of list(child(child(submission, 'ACTIONS'), 'ACTION'))) {
    const names = Object.keys((action as Node) ?? {}).filter((k) => !k.startsWith('@_') && k !== '#text');
    const [name] = names;
    if (names.length !== 1 || !name || !ACTION_TYPES.includes(name)) {
      errors.push(`Invalid ACTION: expected exactly one of ${ACTION_TYPES.join(', ')}.`);
      continue;
    }
    const body = child(action, name);
    const a: ParsedAction = { type: name as ActionType };
    const target = attr(body, 'target');
    if (target) a.target = target;
    const hold = attr(body, 'HoldUntilDate');
    if (hold) a.holdUntilDate = hold;
    actions.push(a);
  }
  return actions;
}

/** Objects and actions from the roots found (a WEBIN, or the parts of a v1 drop-box submission). */
export function readDocument(roots: Node[], v1Action?: { action: string; holdDate?: string }): ParsedDocument {
  const errors: string[] = [];
  const objects: DocObject[] = [];
  let actions: ParsedAction[] = [];
  let submissions = 0;

  const visit = (container: Node) => {
    for (const [name, value] of Object.entries(container)) {
      if (name.startsWith('@_')) continue;
      if (name === 'WEBIN') {
        visit((value as Node) ?? {});
        continue;
      }
      const setOf = /^(\w+)_SET$/.exec(name)?.[1];
      const type = setOf ?? name;
      const items = setOf ? list(child(value, setOf)) : list(value);
      if (type === 'SUBMISSION') {
        for (const s of items) {
          submissions += 1;
          actions = actions.concat(readActions(s, errors));
        }
      } else if ((OBJECT_TYPES as readonly string[]).includes(type)) {
        for (const node of items) {
          const alias = attr(node, 'alias')?.trim() ?? '';
          const accession = attr(node, 'accession')?.trim();
          objects.push({ type: type as ObjectType, alias, ...(accession ? { accession } : {}), node: (node as Node) ?? {} });
        }
      } else {
        errors.push(`${type} objects are not supported by this test server.`);
      }
    }
  };
  roots.forEach(visit);

  if (v1Action && !submissions) {
    for (const a of v1Action.action
      .split(',')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean)) {
      if (!ACTION_TYPES.includes(a)) errors.push(`Invalid ACTION ${a}.`);
      else actions.push({ type: a as ActionType });
    }
    if (v1Action.holdDate) actions.push({ type: 'HOLD', holdUntilDate: v1Action.holdDate });
  } else if (submissions !== 1) {
    errors.push(submissions ? 'Only one SUBMISSION is allowed.' : 'The submission XML is missing: a SUBMISSION with ACTIONS is required.');
  }
  if (!errors.length && !actions.length) errors.push('The SUBMISSION has no ACTIONS.');
  return { actions, objects, errors };
}
