import { RepositoryError, RepositoryHttpError, RepositoryProtocolError } from '../errors';
import { basicAuth, type HttpOptions, httpRequest, joinUrl, plumbingOf } from '../http';
import { buildWebinXml } from './build';
import { type ArchiveFile, parseFileReport } from './file-report';
import { type EnaReceipt, parseReceipt, type ReceiptObject } from './receipt';
import { parseSampleSet } from './sample-set';
import type { BrokerDefaults, WebinDocument } from './types';
import { lastSegment, pollLinkOf, pollUrlOnHost, QueueAnswer, webinRoot } from './webin-url';

export type { ArchiveFile } from './file-report';

/**
 * Webin REST v2 (docs/repositories.md §1): one multipart part `file` holding a `<WEBIN>` document, sent to `…/submit`
 * (synchronous, answers the RECEIPT) or `…/submit/queue` (answers a submission id and poll links; `…/submit/poll/{id}`
 * then answers 202 while queued and 200 with the RECEIPT when done). HTTP Basic auth with the Webin account.
 */

export interface EnaClientOptions extends Omit<HttpOptions, 'service'>, BrokerDefaults {
  /** the Webin REST root, e.g. https://wwwdev.ebi.ac.uk/ena/submit (a …/drop-box or …/webin-v2 suffix is tolerated) */
  baseUrl: string;
  username: string;
  password: string;
  /** for the synchronous submit, which ENA itself aborts after a while: by default a little longer, to hear ENA's answer */
  submitTimeoutMs?: number;
}

export interface QueuedSubmission {
  /** ERA… */
  submissionId: string;
  /** where to poll; always on the configured Webin host */
  pollUrl: string;
  submissionAccountId?: string;
}

export type PollResult = { state: 'pending' } | { state: 'complete'; receipt: EnaReceipt };

export interface WaitOptions {
  /** between polls */
  intervalMs?: number;
  /** give up (EnaStillQueuedError) after this long; by default ENA's own limit for queued submissions */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface EnaClient {
  readonly endpoints: { submit: string; queue: string; poll: (submissionId: string) => string };
  /** synchronous submit; a refused submission is a receipt with `success: false`, not an exception */
  submit(doc: WebinDocument | string, init?: { signal?: AbortSignal }): Promise<EnaReceipt>;
  /** queued submit: keep the answer, then `poll` (from a later job run if need be) */
  queue(doc: WebinDocument | string, init?: { signal?: AbortSignal }): Promise<QueuedSubmission>;
  /** one poll, by the queue answer, a submission id (ERA…) or a poll URL */
  poll(target: QueuedSubmission | string, init?: { signal?: AbortSignal }): Promise<PollResult>;
  /** polls until the receipt arrives */
  waitForReceipt(target: QueuedSubmission | string, options?: WaitOptions): Promise<EnaReceipt>;
  /** the receipt of an earlier ADD of this alias or accession (the RECEIPT action) */
  fetchReceipt(target: string): Promise<EnaReceipt>;
  /**
   * The account's own samples by their ENA accessions (ERS…), at most SAMPLE_REPORT_LOT a call, with alias and
   * BioSample accession: Webin's reports service (docs/repositories.md §2.1). Accessions it does not know are absent.
   */
  samplesByAccession(accessions: readonly string[]): Promise<ReceiptObject[]>;
  /**
   * How far ENA has got with archiving the data files of one of the account's runs (ERR…) or analyses (ERZ…):
   * Webin's reports service (docs/repositories.md §2.2). An accession the account does not hold has no files.
   */
  filesOf(kind: 'run' | 'analysis', accession: string): Promise<ArchiveFile[]>;
  /** makes a held study public now (its runs and experiments follow) */
  release(target: string): Promise<EnaReceipt>;
  /** moves the release date of a private object; YYYY-MM-DD, at most two years ahead */
  hold(target: string, holdUntilDate: string): Promise<EnaReceipt>;
}

/**
 * Samples asked of Webin's reports service in one call. Webin documents no limit for a list of ids; this is the lot
 * submitters use against production, and a URL of that many accessions stays far below any server's line length.
 */
export const SAMPLE_REPORT_LOT = 100;

/** The report and the accessions each kind of files report takes (INSDC run and analysis accessions). */
const FILE_REPORTS = {
  run: { path: 'report/run-files', accession: /^[EDS]RR\d+$/ },
  analysis: { path: 'report/analysis-files', accession: /^[EDS]RZ\d+$/ },
} as const;

/** Still queued at ENA when the wait ended: poll again later with the same submission id. */
export class EnaStillQueuedError extends RepositoryError {
  constructor(
    readonly submissionId: string,
    readonly pollUrl: string,
  ) {
    super('ena', `ENA submission ${submissionId} is still queued`);
    this.name = 'EnaStillQueuedError';
  }
}

export function createEnaClient(options: EnaClientOptions): EnaClient {
  const root = webinRoot(options.baseUrl);
  const rootUrl = new URL(root);
  const http = plumbingOf(options, 'ena');
  const auth = basicAuth(options.username, options.password);
  const defaults: BrokerDefaults = { centerName: options.centerName, brokerName: options.brokerName };
  const endpoints = {
    submit: joinUrl(root, 'webin-v2/submit'),
    queue: joinUrl(root, 'webin-v2/submit/queue'),
    poll: (id: string) => joinUrl(root, 'webin-v2/submit/poll', encodeURIComponent(id)),
  };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  const form = (doc: WebinDocument | string) => {
    const xml = typeof doc === 'string' ? doc : buildWebinXml(doc, defaults);
    return () => {
      const body = new FormData();
      body.append('file', new Blob([xml], { type: 'application/xml' }), 'webin.xml');
      return body;
    };
  };

  // a poll link on the configured host only, else the documented path (lib/repositories/ena/webin-url.ts)
  const safePollUrl = (href: string | undefined, submissionId: string): string =>
    pollUrlOnHost(rootUrl, href) ?? endpoints.poll(submissionId);

  // ENA may answer a refused document with 400 and a RECEIPT: that is an answer, not a transport failure
  const receiptOrThrow = (res: { status: number; body: string }, method: string, url: string): EnaReceipt => {
    try {
      return parseReceipt(res.body);
    } catch (err) {
      if (res.status >= 400) throw new RepositoryHttpError('ena', method, url, res.status, res.body);
      throw err;
    }
  };

  const submitDocument = async (doc: WebinDocument | string, signal?: AbortSignal): Promise<EnaReceipt> => {
    const res = await httpRequest(http, {
      method: 'POST',
      url: endpoints.submit,
      headers: { authorization: auth, accept: 'application/xml' },
      body: form(doc),
      timeoutMs: options.submitTimeoutMs ?? Math.max(options.timeoutMs ?? 0, 90_000),
      // aliases make a repeated ADD fail with "already exists" instead of duplicating, so retrying is safe
      idempotent: true,
      accept: [400, 422],
      signal,
    });
    return receiptOrThrow(res, 'POST', endpoints.submit);
  };

  const client: EnaClient = {
    endpoints,
    submit: (doc, init) => submitDocument(doc, init?.signal),

    async queue(doc, init) {
      const res = await httpRequest(http, {
        method: 'POST',
        url: endpoints.queue,
        headers: { authorization: auth, accept: 'application/json' },
        body: form(doc),
        idempotent: true,
        signal: init?.signal,
      });
      let parsed: QueueAnswer;
      try {
        parsed = QueueAnswer.parse(JSON.parse(res.body));
      } catch {
        throw new RepositoryProtocolError('ena', 'ENA queue answer is not the expected JSON', res.body);
      }
      return {
        submissionId: parsed.submissionId,
        pollUrl: safePollUrl(pollLinkOf(parsed), parsed.submissionId),
        ...(parsed.submissionAccountId ? { submissionAccountId: parsed.submissionAccountId } : {}),
      };
    },

    async poll(target, init) {
      const url =
        typeof target === 'string'
          ? /^https?:\/\//i.test(target)
            ? safePollUrl(target, lastSegment(target))
            : endpoints.poll(target)
          : safePollUrl(target.pollUrl, target.submissionId);
      const res = await httpRequest(http, {
        method: 'GET',
        url,
        headers: { authorization: auth, accept: 'application/xml' },
        signal: init?.signal,
      });
      if (res.status === 202 || !res.body.trim()) return { state: 'pending' };
      return { state: 'complete', receipt: receiptOrThrow(res, 'GET', url) };
    },

    async waitForReceipt(target, wait = {}) {
      const intervalMs = wait.intervalMs ?? 5_000;
      const deadline = Date.now() + (wait.timeoutMs ?? 10 * 60_000);
      for (;;) {
        const result = await client.poll(target, { signal: wait.signal });
        if (result.state === 'complete') return result.receipt;
        if (Date.now() + intervalMs > deadline) {
          const id = typeof target === 'string' ? target : target.submissionId;
          throw new EnaStillQueuedError(id, typeof target === 'string' ? endpoints.poll(id) : target.pollUrl);
        }
        await sleep(intervalMs);
      }
    },

    fetchReceipt: (target) => submitDocument({ submission: { actions: [{ type: 'RECEIPT', target }] } }),
    async samplesByAccession(accessions) {
      if (accessions.length > SAMPLE_REPORT_LOT)
        throw new RangeError(`at most ${SAMPLE_REPORT_LOT} samples a report, not ${accessions.length}`);
      if (!accessions.length) return [];
      const url = joinUrl(root, 'report/samples/xml', accessions.map(encodeURIComponent).join(','));
      const res = await httpRequest(http, {
        method: 'GET',
        url,
        headers: { authorization: auth, accept: 'application/xml' },
        accept: [404],
      });
      return res.status === 404 ? [] : parseSampleSet(res.body);
    },
    async filesOf(kind, accession) {
      const report = FILE_REPORTS[kind];
      // only an accession of that kind reaches the URL path: anything else is a caller's mistake, not a question for ENA
      if (!report?.accession.test(accession)) throw new RangeError(`'${accession}' is not an ENA ${kind} accession`);
      const url = joinUrl(root, report.path, encodeURIComponent(accession));
      const res = await httpRequest(http, {
        method: 'GET',
        url,
        headers: { authorization: auth, accept: 'application/json' },
        accept: [404],
      });
      return res.status === 404 ? [] : parseFileReport(res.body);
    },
    release: (target) => submitDocument({ submission: { actions: [{ type: 'RELEASE', target }] } }),
    hold: (target, holdUntilDate) => submitDocument({ submission: { actions: [{ type: 'HOLD', target, holdUntilDate }] } }),
  };
  return client;
}
