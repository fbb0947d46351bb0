import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { XMLBuilder } from 'fast-xml-parser';
import { enaSchemaErrors } from '../ena-schemas';
import { FileArchive, reportFiles } from './ena-files';
import { DEFAULT_PUBLIC_SAMPLES, dropBoxSample, type PublicSample, reportSamples } from './ena-samples';
import { DEFAULT_CHECKLISTS, dataFileNames, dataFiles, type ValidationContext, validateObject } from './ena-validate';
import { attr, child, type DocObject, type Node, type ObjectType, type ParsedAction, parseXml, readDocument } from './ena-xml';
import { basicCredentials, formParts, type Incoming, json, type Outgoing, text, xml } from './http';
import type { TaxonomyTable } from './taxonomy';

/**
 * Webin REST in memory (docs/repositories.md §1–§3): v2 `submit`, `submit/queue` and `submit/poll/{id}`, and the v1
 * drop-box. Objects live per Webin account and per type by alias, so a second ADD of an alias gets ENA's
 * "already exists" error and a MODIFY finds its object. Receipts have the real shape, test-server INFO included.
 * The files of accepted RUNs and ANALYSes wait in `files` (ena-files.ts) for a test to archive or fail them.
 */

export interface EnaSettings {
  /** the queue answer's poll links: the documented `links: [{rel, href}]` or the HAL `_links.poll.href` */
  pollLinkShape: 'links' | 'hal';
  /** write poll links on another origin (to check that clients do not follow them with credentials) */
  pollLinkOrigin?: string;
  /** polls answering 202 before the receipt */
  pendingPolls: number;
  /** "already exists" in the current wording (with the accession) or the old one (without) */
  aliasErrorWording: 'new' | 'old';
}

export interface StoredObject {
  type: ObjectType;
  alias: string;
  accession: string;
  extId?: { accession: string; type: string };
  status: 'PRIVATE' | 'PUBLIC' | 'CANCELLED';
  holdUntilDate?: string;
  node: Node;
  /** the submission that last acted on the object: its ADD, then each MODIFY */
  submissionAccession: string;
}

export interface EnaSubmissionRecord {
  account: string;
  via: 'sync' | 'queue' | 'v1';
  success: boolean;
  submissionAccession?: string;
  actions: string[];
  objects: { type: ObjectType; alias: string }[];
  receipt: string;
  at: Date;
}

interface Account {
  objects: Map<string, StoredObject>;
  byAccession: Map<string, StoredObject>;
}

/** The checklists the stand-in publishes: fixtures written from ENA's (tests/fixtures/ena-checklists). */
const CHECKLIST_FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'ena-checklists');
const DEFAULT_CHECKLIST_SETS: Record<string, string> = Object.fromEntries(
  ['sample', 'sequence']
    .filter((kind) => existsSync(path.join(CHECKLIST_FIXTURES, `${kind}-checklists.xml`)))
    .map((kind) => [kind, readFileSync(path.join(CHECKLIST_FIXTURES, `${kind}-checklists.xml`), 'utf8')]),
);

const TEST_INFO = 'This submission is a TEST submission and will be discarded within 24 hours';
const PREFIX: Record<ObjectType | 'SUBMISSION', [string, string?, string?]> = {
  PROJECT: ['PRJEB', 'ERP', 'study'],
  SAMPLE: ['ERS', 'SAMEA', 'biosample'],
  EXPERIMENT: ['ERX'],
  RUN: ['ERR'],
  ANALYSIS: ['ERZ'],
  SUBMISSION: ['ERA'],
};

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
  format: true,
});

const day = (d: Date) => d.toISOString().slice(0, 10);
const plusMonths = (d: Date, n: number) => {
  const x = new Date(d);
  x.setUTCMonth(x.getUTCMonth() + n);
  return x;
};

/** What the stand-in needs of the upload area: a file of an account's area, or null. */
export type AreaFileLookup = (account: string, filename: string) => Promise<{ size: number; md5: string } | null>;

export class EnaState {
  readonly submissions: EnaSubmissionRecord[] = [];
  /** calls to the reports service (`report/samples/xml/{ids}`), with the ids asked */
  readonly reports: { account: string; ids: string[]; at: Date }[] = [];
  readonly accounts = new Map<string, Account>();
  readonly queued = new Map<string, { account: string; receipt: string; pollsLeft: number }>();
  /** ENA's published checklists by type (`sample`, `sequence`): what `report/checklists/xml/*` answers */
  readonly checklistSets: Record<string, string> = { ...DEFAULT_CHECKLIST_SETS };
  /** each read of the checklists */
  readonly checklistReads: { kind: string; at: Date }[] = [];
  /** samples of other submitters that the browser API shows */
  readonly publicSamples: PublicSample[] = DEFAULT_PUBLIC_SAMPLES.map((s) => ({ ...s }));
  /** the archiving of the files of accepted RUNs and ANALYSes, and the tests' controls over it */
  readonly files = new FileArchive();
  private counter = 70_000;

  constructor(
    readonly credentials: Record<string, string>,
    readonly taxa: TaxonomyTable,
    readonly settings: EnaSettings,
    readonly checklists: Record<string, string[]> = DEFAULT_CHECKLISTS,
    readonly areaFile?: AreaFileLookup,
  ) {}

  /** Every object an account (or every account) holds. */
  objects(account?: string): StoredObject[] {
    const accounts = account ? [this.accounts.get(account)].filter((a): a is Account => !!a) : [...this.accounts.values()];
    return accounts.flatMap((a) => [...a.objects.values()]);
  }

  nextAccession(type: ObjectType | 'SUBMISSION'): { accession: string; extId?: { accession: string; type: string } } {
    const n = ++this.counter;
    const [prefix, extPrefix, extType] = PREFIX[type];
    return { accession: `${prefix}${n}`, ...(extPrefix && extType ? { extId: { accession: `${extPrefix}${n}`, type: extType } } : {}) };
  }

  private account(name: string): Account {
    let a = this.accounts.get(name);
    if (!a) {
      a = { objects: new Map(), byAccession: new Map() };
      this.accounts.set(name, a);
    }
    return a;
  }

  /** Runs one submission document; the receipt is returned and the attempt recorded. */
  process(
    accountName: string,
    roots: Node[],
    via: EnaSubmissionRecord['via'],
    options: {
      v1Action?: { action: string; holdDate?: string };
      forcedErrors?: string[];
      submissionAccession?: string;
      /** the upload area's files that the document's RUNs and ANALYSes name, when the area is checked */
      areaFiles?: Map<string, { size: number; md5: string } | null>;
    } = {},
  ): { receipt: string; success: boolean; submissionAccession?: string } {
    const acct = this.account(accountName);
    const doc = readDocument(roots, options.v1Action);
    const actions = doc.actions;
    const types = new Set(actions.map((a) => a.type));
    const firstSample = doc.objects.find((o) => o.type === 'SAMPLE')?.alias ?? 'unknown';
    const errors = options.forcedErrors
      ? options.forcedErrors.length
        ? [...options.forcedErrors]
        : [`Sample: ${firstSample}; Attribute: collection date; Reason: must match format "date"`]
      : [...doc.errors];
    if (!errors.length) errors.push(...this.check(acct, doc.objects, actions, types, options.areaFiles));
    const record = (success: boolean, receipt: string, submissionAccession?: string) => {
      this.submissions.push({
        account: accountName,
        via,
        success,
        ...(submissionAccession ? { submissionAccession } : {}),
        actions: actions.map((a) => a.type),
        objects: doc.objects.map((o) => ({ type: o.type, alias: o.alias })),
        receipt,
        at: new Date(),
      });
      return { receipt, success, ...(submissionAccession ? { submissionAccession } : {}) };
    };

    if (errors.length) {
      const receipt = this.receipt(
        false,
        doc.objects.map((o) => ({ type: o.type, alias: o.alias })),
        undefined,
        actions,
        [...errors.map((e) => ['ERROR', e] as const), ['INFO', 'Submission has been rolled back.'] as const],
      );
      return record(false, receipt);
    }
    if (types.has('VALIDATE')) {
      const receipt = this.receipt(
        true,
        doc.objects.map((o) => ({ type: o.type, alias: o.alias })),
        undefined,
        actions,
        [['INFO', 'Submission(s) validated successfully.']],
      );
      return record(true, receipt);
    }

    // a RECEIPT answers the receipt of the submission that last acted on its target (its ADD, or its last MODIFY)
    const receiptOf = types.size === 1 && types.has('RECEIPT') ? actions[0]?.target : undefined;
    const receiptTarget = receiptOf ? this.find(acct, receiptOf) : undefined;
    const submissionAccession =
      receiptTarget?.submissionAccession ?? options.submissionAccession ?? this.nextAccession('SUBMISSION').accession;
    const shown = this.apply(acct, doc.objects, actions, types, submissionAccession, options.areaFiles);
    const infos: (readonly ['INFO', string])[] = [];
    if (types.has('ADD') && !actions.some((a) => a.type === 'RELEASE' && !a.target))
      infos.push(['INFO', 'All objects in this submission are set to private status (HOLD).']);
    const receipt = this.receipt(true, shown, submissionAccession, actions, infos);
    return record(true, receipt, submissionAccession);
  }

  private find(acct: Account, target: string): StoredObject | undefined {
    return acct.byAccession.get(target) ?? [...acct.objects.values()].find((o) => o.alias === target);
  }

  private check(
    acct: Account,
    objects: DocObject[],
    actions: ParsedAction[],
    types: Set<string>,
    areaFiles?: Map<string, { size: number; md5: string } | null>,
  ): string[] {
    const errors: string[] = [];
    const add = types.has('ADD');
    const modify = types.has('MODIFY');
    if (add && modify) errors.push('The ADD and MODIFY actions cannot be used in the same submission.');
    if (objects.length && !add && !modify) errors.push('Objects were submitted without an ADD or MODIFY action.');

    const seen = new Set<string>();
    for (const o of objects) {
      const key = `${o.type}:${o.alias}`;
      if (o.alias && seen.has(key))
        errors.push(`In ${o.type.toLowerCase()}, alias: "${o.alias}". The alias is used more than once in this submission.`);
      seen.add(key);
    }
    const ctx: ValidationContext = {
      taxa: this.taxa,
      checklists: this.checklists,
      hasAlias: (type, alias) => objects.some((o) => o.type === type && o.alias === alias) || acct.objects.has(`${type}:${alias}`),
      hasAccession: (ts, accession) => {
        const o = acct.byAccession.get(accession);
        return !!o && ts.includes(o.type) && o.status !== 'CANCELLED';
      },
      ...(areaFiles && { areaFile: (filename: string) => areaFiles.get(filename) ?? null }),
    };
    for (const o of objects) errors.push(...validateObject(o, ctx));

    for (const o of objects) {
      if (!o.alias) continue;
      const existing = acct.objects.get(`${o.type}:${o.alias}`) ?? (o.accession ? acct.byAccession.get(o.accession) : undefined);
      const kind = o.type.toLowerCase();
      if (add && existing) {
        errors.push(
          this.settings.aliasErrorWording === 'old'
            ? `In ${kind}, alias:"${o.alias}", accession:"". The object being added already exists in the submission account.`
            : `In ${kind}, alias: "${o.alias}". The object being added already exists in the submission account with accession: "${existing.accession}".`,
        );
      }
      if (modify && !existing)
        errors.push(`In ${kind}, alias: "${o.alias}". The object being updated does not exist in the submission account.`);
    }

    const today = new Date();
    for (const a of actions) {
      if (a.type === 'HOLD' && a.holdUntilDate !== undefined) {
        const date = new Date(`${a.holdUntilDate}T00:00:00Z`);
        if (!/^\d{4}-\d{2}-\d{2}$/.test(a.holdUntilDate) || Number.isNaN(date.getTime()))
          errors.push(`Invalid hold date "${a.holdUntilDate}".`);
        else if (date <= today || date > plusMonths(today, 24))
          errors.push(`The hold date "${a.holdUntilDate}" must be in the future and at most two years ahead.`);
      }
      if (!a.target) {
        if (a.type === 'CANCEL' || a.type === 'RECEIPT') errors.push(`The ${a.type} action needs a target.`);
        continue;
      }
      const target = this.find(acct, a.target);
      if (!target || target.status === 'CANCELLED') errors.push(`The object "${a.target}" does not exist in the submission account.`);
      else if (a.type === 'HOLD' && target.status === 'PUBLIC')
        errors.push(`The object "${a.target}" is already public and cannot be held.`);
    }
    return errors;
  }

  private apply(
    acct: Account,
    objects: DocObject[],
    actions: ParsedAction[],
    types: Set<string>,
    submissionAccession: string,
    areaFiles?: Map<string, { size: number; md5: string } | null>,
  ): StoredObject[] {
    const releaseAll = actions.some((a) => a.type === 'RELEASE' && !a.target);
    const hold = actions.find((a) => a.type === 'HOLD' && !a.target);
    const holdDate = releaseAll ? undefined : (hold?.holdUntilDate ?? day(plusMonths(new Date(), hold ? 24 : 2)));
    const shown: StoredObject[] = [];

    for (const o of objects) {
      const key = `${o.type}:${o.alias}`;
      if (types.has('MODIFY')) {
        const existing = (acct.objects.get(key) ?? (o.accession ? acct.byAccession.get(o.accession) : undefined)) as StoredObject;
        existing.node = o.node;
        existing.submissionAccession = submissionAccession;
        shown.push(existing);
        continue;
      }
      const { accession, extId } = this.nextAccession(o.type);
      const stored: StoredObject = {
        type: o.type,
        alias: o.alias,
        accession,
        ...(extId ? { extId } : {}),
        status: releaseAll ? 'PUBLIC' : 'PRIVATE',
        ...(holdDate && (o.type === 'PROJECT' || o.type === 'SAMPLE') ? { holdUntilDate: `${holdDate}+00:00` } : {}),
        node: o.node,
        submissionAccession,
      };
      acct.objects.set(key, stored);
      acct.byAccession.set(accession, stored);
      if (extId) acct.byAccession.set(extId.accession, stored);
      // ENA starts archiving a run's or analysis's files once it has taken the object (a MODIFY cannot change them)
      const files = dataFiles(o);
      if (files.length)
        this.files.register(
          accession,
          files.map((f) => {
            const size = areaFiles?.get(f.filename ?? '')?.size;
            return { fileName: f.filename ?? '', ...(size === undefined ? {} : { fileSize: size }), md5Checksum: f.checksum.toLowerCase() };
          }),
        );
      shown.push(stored);
    }

    for (const a of actions) {
      const target = a.target ? this.find(acct, a.target) : undefined;
      if (!target) continue;
      if (a.type === 'RELEASE') {
        for (const o of this.withDependants(acct, target)) {
          o.status = 'PUBLIC';
          delete o.holdUntilDate;
        }
      } else if (a.type === 'HOLD' && a.holdUntilDate) target.holdUntilDate = `${a.holdUntilDate}+00:00`;
      else if (a.type === 'CANCEL') for (const o of this.withDependants(acct, target)) o.status = 'CANCELLED';
      if (!shown.includes(target)) shown.push(target);
    }
    return shown;
  }

  /** The object and what follows it: a project's experiments and analyses, an experiment's runs. */
  private withDependants(acct: Account, target: StoredObject): StoredObject[] {
    const out = [target];
    const refersTo = (node: unknown, o: StoredObject) =>
      attr(node, 'accession') === o.accession || attr(node, 'accession') === o.extId?.accession || attr(node, 'refname') === o.alias;
    for (const o of acct.objects.values()) {
      if (target.type === 'PROJECT' && o.type === 'EXPERIMENT' && refersTo(child(o.node, 'STUDY_REF'), target))
        out.push(...this.withDependants(acct, o));
      if (target.type === 'PROJECT' && o.type === 'ANALYSIS' && refersTo(child(o.node, 'STUDY_REF'), target)) out.push(o);
      if (target.type === 'EXPERIMENT' && o.type === 'RUN' && refersTo(child(o.node, 'EXPERIMENT_REF'), target)) out.push(o);
    }
    return out;
  }

  private receipt(
    success: boolean,
    objects: (StoredObject | { type: ObjectType; alias: string })[],
    submissionAccession: string | undefined,
    actions: ParsedAction[],
    messages: (readonly ['ERROR' | 'INFO', string])[],
  ): string {
    const now = new Date();
    const root: Node = {
      '@_receiptDate': now.toISOString().replace('Z', '+00:00'),
      '@_submissionFile': 'submission.xml',
      '@_success': String(success),
    };
    for (const o of objects) {
      const el: Node = { '@_alias': o.alias };
      if ('accession' in o) {
        el['@_accession'] = o.accession;
        el['@_status'] = o.status;
        if (o.holdUntilDate) el['@_holdUntilDate'] = o.holdUntilDate;
        if (o.extId) el.EXT_ID = { '@_accession': o.extId.accession, '@_type': o.extId.type };
      }
      const list = (root[o.type] as Node[] | undefined) ?? [];
      list.push(el);
      root[o.type] = list;
    }
    const stamp = now.toISOString().replace(/[-:TZ.]/g, '');
    root.SUBMISSION = { ...(submissionAccession ? { '@_accession': submissionAccession } : {}), '@_alias': `SUBMISSION-${stamp}` };
    root.MESSAGES = {
      ERROR: messages.filter((m) => m[0] === 'ERROR').map((m) => m[1]),
      INFO: [...messages.filter((m) => m[0] === 'INFO').map((m) => m[1]), TEST_INFO],
    };
    root.ACTIONS = actions.map((a) => a.type);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<?xml-stylesheet type="text/xsl" href="receipt.xsl"?>\n${builder.build({ RECEIPT: root }) as string}`;
  }
}

function pollLinks(state: EnaState, base: string, id: string, account: string): Record<string, unknown> {
  const origin = state.settings.pollLinkOrigin ?? new URL(base).origin;
  const href = `${origin}${new URL(base).pathname}/webin-v2/submit/poll/${id}`;
  const head = { submissionId: id, submissionAccountId: account };
  return state.settings.pollLinkShape === 'hal'
    ? { ...head, _links: { poll: { href } } }
    : {
        ...head,
        links: [
          { rel: 'poll-json', href: `${href}?mediaType=json` },
          { rel: 'poll-xml', href: `${href}?mediaType = xml` },
        ],
      };
}

/** `report/checklists/xml/*?type=sample|sequence`: the CHECKLIST_SET of the kind, as ENA's reports service answers it. */
function checklistSet(state: EnaState, incoming: Incoming): Outgoing {
  if (incoming.method !== 'GET') return json(405, { message: 'Method not allowed' });
  const kind = incoming.url.searchParams.get('type') ?? '';
  state.checklistReads.push({ kind, at: new Date() });
  const set = state.checklistSets[kind];
  if (set === undefined) return json(400, { message: `Unknown checklist type: ${kind}` });
  return xml(200, set);
}

/** Requests under the Webin root (`/ena/submit`); `base` is that root's URL. */
export async function handleEna(
  state: EnaState,
  incoming: Incoming,
  rest: string,
  base: string,
  forcedErrors?: string[],
): Promise<Outgoing> {
  // ENA's checklists are public: the reports service answers them to anyone
  if (rest === '/report/checklists/xml/*') return checklistSet(state, incoming);

  const creds = basicCredentials(incoming);
  if (!creds || state.credentials[creds.username] !== creds.password)
    return { status: 401, headers: { 'www-authenticate': 'Basic realm="ENA"', 'content-type': 'text/plain' }, body: 'Unauthorized' };
  const account = creds.username;

  const report = /^\/report\/samples\/xml\/([^/?]+)$/.exec(rest);
  if (report?.[1]) return reportSamples(state, account, incoming, report[1]);

  const files = /^\/report\/(run|analysis)-files\/([^/?]+)$/.exec(rest);
  if (files?.[1] && files[2]) return reportFiles(state, account, incoming, files[1] as 'run' | 'analysis', decodeURIComponent(files[2]));

  const sample = /^\/drop-box\/samples\/([^/]+)$/.exec(rest);
  if (sample?.[1]) return dropBoxSample(state, account, incoming, decodeURIComponent(sample[1]));

  const poll = /^\/webin-v2\/submit\/poll\/([^/?]+)$/.exec(rest);
  if (poll?.[1]) {
    if (incoming.method !== 'GET') return json(405, { message: 'Method not allowed' });
    const q = state.queued.get(poll[1]);
    if (!q || q.account !== account) return json(404, { message: `Submission ${poll[1]} not found` });
    if (q.pollsLeft > 0) {
      q.pollsLeft -= 1;
      return json(202, { submissionId: poll[1], status: 'PENDING' });
    }
    return xml(200, q.receipt);
  }

  const isV2 = rest === '/webin-v2/submit' || rest === '/webin-v2/submit/queue';
  const isV1 = rest === '/drop-box/submit' || rest === '/drop-box/submit/';
  if (!isV2 && !isV1) return json(404, { message: 'Not found' });
  if (incoming.method !== 'POST') return json(405, { message: 'Method not allowed' });
  const parts = await formParts(incoming);
  if (!parts) return text(415, 'Content type must be multipart/form-data');

  const roots: Node[] = [];
  const parseErrors: string[] = [];
  const names = isV2 ? ['file'] : ['SUBMISSION', 'PROJECT', 'SAMPLE', 'EXPERIMENT', 'RUN', 'STUDY', 'ANALYSIS'];
  if (isV2 && !parts.has('file')) return text(400, "Required request part 'file' is not present");
  for (const name of names) {
    const content = parts.get(name);
    if (content === undefined) continue;
    const parsed = parseXml(content);
    if (!parsed.ok) {
      parseErrors.push(parsed.error);
      continue;
    }
    // Webin validates every document against its XML Schema before any rule of its own, and refuses the whole
    // submission when one fails
    const invalid = await enaSchemaErrors(content);
    if (invalid.length) parseErrors.push(...invalid.map((e) => `Invalid XML: ${e}`));
    else roots.push(parsed.doc);
  }
  if (isV2 && roots.length && !('WEBIN' in (roots[0] as Node))) parseErrors.push('The submitted file must be a WEBIN document.');
  const v1Action = isV1 && parts.has('ACTION') ? { action: parts.get('ACTION') ?? '', holdDate: parts.get('HOLD_DATE') } : undefined;

  const queue = rest === '/webin-v2/submit/queue';
  const submissionAccession = queue ? state.nextAccession('SUBMISSION').accession : undefined;
  let areaFiles: Map<string, { size: number; md5: string } | null> | undefined;
  if (state.areaFile && !parseErrors.length) {
    const names = dataFileNames(readDocument(roots, v1Action).objects);
    areaFiles = new Map(await Promise.all(names.map(async (n) => [n, await state.areaFile!(account, n)] as const)));
  }
  const result = state.process(account, parseErrors.length ? [] : roots, queue ? 'queue' : isV1 ? 'v1' : 'sync', {
    ...(v1Action ? { v1Action } : {}),
    ...(areaFiles ? { areaFiles } : {}),
    ...(parseErrors.length ? { forcedErrors: parseErrors } : forcedErrors ? { forcedErrors } : {}),
    ...(submissionAccession ? { submissionAccession } : {}),
  });
  if (!queue) return xml(200, result.receipt);
  const id = submissionAccession as string;
  state.queued.set(id, { account, receipt: result.receipt, pollsLeft: state.settings.pendingPolls });
  return json(200, pollLinks(state, base, id, account));
}
