import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaxonRecord } from '@/lib/manifests/types';
import { type EnaSettings, EnaState, handleEna } from './ena';
import { handleBrowser } from './ena-samples';
import { DEFAULT_CHECKLISTS } from './ena-validate';
import { Faults, type ServiceName } from './faults';
import { startUploadAreaServer, type UploadAreaServer } from './ftp';
import { type Incoming, json, type Outgoing, readIncoming, write } from './http';
import { handleLocalContexts, LocalContextsState } from './local-contexts';
import { handleOls, OlsState } from './ols';
import { type MailServer, startMailServer } from './smtp';
import { handleTaxonomy, TaxonomyTable } from './taxonomy';
import { handleTolid, TolidState } from './tolid';
import { handleZenodo, ZenodoState } from './zenodo';

/**
 * A local stand-in for ENA (Webin REST, taxonomy), Zenodo, the ToLID service, the Local Contexts Hub and OLS, on a free loopback port, for tests and e2e runs:
 *   ENA_WEBIN_URL=enaUrl ENA_USERNAME/ENA_PASSWORD=credentials.ena, ENA_TAXONOMY_URL=taxonomyUrl,
 *   ZENODO_URL=zenodoUrl ZENODO_TOKEN=credentials.zenodo.token.
 * Paths mirror the real services (`/ena/submit/webin-v2/…`, `/ena/taxonomy/rest/…`, `/api/deposit/…`).
 */

export type { EnaSettings } from './ena';
export { Faults } from './faults';

export interface RepositoryServerOptions {
  /** Webin accounts, username → password */
  enaAccounts?: Record<string, string>;
  zenodoTokens?: string[];
  tolidTokens?: string[];
  /** taxa added to the built-in table (real taxa: 9606, 171585, 7227, 9913, genus 7215, unsubmittable 32644) */
  taxa?: TaxonRecord[];
  /** synonym → taxId, for any-name look-ups */
  synonyms?: Record<string, string>;
  ena?: Partial<EnaSettings>;
  /** mandatory sample attributes per checklist */
  checklists?: Record<string, string[]>;
  /** a fixed port (for a long-running instance); tests leave it to the system */
  port?: number;
  /**
   * Every Webin call (submit, queue, poll, the reports service) answered no sooner than this long after it arrived,
   * as the real Webin takes a second or more to answer each: what a registration's time depends on
   * (bench/registration.ts)
   */
  webinDelayMs?: number;
}

export interface RecordedRequest {
  service: ServiceName | 'unknown';
  method: string;
  path: string;
  /** the query string, access tokens removed */
  query: string;
  /** the auth scheme used, never the secret */
  auth?: 'basic' | 'bearer' | 'query-token';
  contentType?: string;
  /** the Content-Length header, when the client declared one (a chunked body has none) */
  contentLength?: string;
  /** the body as text (multipart included), for assertions on what was sent */
  body: string;
  /** 0 while unanswered (or never answered: a hang) */
  status: number;
  fault?: 'fail' | 'hang' | 'errorReceipt';
  at: Date;
}

export interface RepositoryServer {
  url: string;
  /** the Webin REST root, as ENA_WEBIN_URL */
  enaUrl: string;
  /** the Zenodo API root, as ZENODO_URL */
  zenodoUrl: string;
  /** as ENA_TAXONOMY_URL */
  taxonomyUrl: string;
  /** ENA's browser API root, as ENA_BROWSER_URL */
  browserUrl: string;
  /** the service's ENA settings for this stand-in: Webin, its account, taxonomy and the browser API */
  enaSettings: {
    ENA_WEBIN_URL: string;
    ENA_USERNAME: string;
    ENA_PASSWORD: string;
    ENA_TAXONOMY_URL: string;
    ENA_BROWSER_URL: string;
  };
  /** Sanger's ToLID service, as TOLID_URL */
  tolidUrl: string;
  tolid: TolidState;
  /** the Local Contexts Hub's API, as LOCAL_CONTEXTS_URL */
  localContextsUrl: string;
  localContexts: LocalContextsState;
  /** EBI's Ontology Lookup Service, as OLS_URL */
  olsUrl: string;
  ols: OlsState;
  /** an SMTP server that keeps what it receives, as SMTP_URL */
  smtpUrl: string;
  mail: MailServer;
  /** the Webin file upload area (FTP), as ENA_FTP_URL */
  ftpUrl: string;
  uploadArea: UploadAreaServer;
  credentials: { ena: { username: string; password: string }; zenodo: { token: string }; tolid: { token: string } };
  faults: Faults;
  requests: RecordedRequest[];
  ena: EnaState;
  zenodo: ZenodoState;
  taxonomy: TaxonomyTable;
  close(): Promise<void>;
}

const ENA_ROOT = '/ena/submit';
const TAXONOMY_ROOT = '/ena/taxonomy/rest';
const BROWSER_ROOT = '/ena/browser/api';
const TOLID_ROOT = '/tolid/api/v3';
const LOCAL_CONTEXTS_ROOT = '/localcontexts/api/v1';
const OLS_ROOT = '/ols4/api';
const ZENODO_ROOT = '/api';

function route(path: string): { service: ServiceName; rest: string } | undefined {
  for (const [service, root] of [
    ['ena', ENA_ROOT],
    ['taxonomy', TAXONOMY_ROOT],
    ['browser', BROWSER_ROOT],
    ['tolid', TOLID_ROOT],
    ['localcontexts', LOCAL_CONTEXTS_ROOT],
    ['ols', OLS_ROOT],
    ['zenodo', ZENODO_ROOT],
  ] as const) {
    if (path === root || path.startsWith(`${root}/`)) return { service, rest: path.slice(root.length) };
  }
  return undefined;
}

function authScheme(incoming: Incoming): RecordedRequest['auth'] {
  const h = incoming.headers.authorization ?? '';
  if (/^basic /i.test(h)) return 'basic';
  if (/^bearer /i.test(h)) return 'bearer';
  return incoming.url.searchParams.has('access_token') ? 'query-token' : undefined;
}

export async function startRepositoryServer(options: RepositoryServerOptions = {}): Promise<RepositoryServer> {
  const enaAccounts = options.enaAccounts ?? { 'Webin-00000': 'webin-test-password' };
  const zenodoTokens = options.zenodoTokens ?? ['zenodo-test-token'];
  const tolidTokens = options.tolidTokens ?? ['tolid-test-token'];
  const tolid = new TolidState(new Set(tolidTokens));
  const localContexts = new LocalContextsState();
  const ols = new OlsState();
  const taxonomy = new TaxonomyTable(options.taxa, options.synonyms);
  const faults = new Faults();
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const settings: EnaSettings = { pollLinkShape: 'links', pendingPolls: 1, aliasErrorWording: 'new', ...options.ena };
  const uploadArea = await startUploadAreaServer(enaAccounts);
  const mail = await startMailServer();
  const ena = new EnaState(enaAccounts, taxonomy, settings, { ...DEFAULT_CHECKLISTS, ...options.checklists }, (account, filename) =>
    uploadArea.fileOf(account, filename),
  );
  const zenodo = new ZenodoState(new Set(zenodoTokens));
  let base = '';
  // a pause cut short by close() never ends: its request goes unanswered, as the server is gone
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  const dispatch = async (incoming: Incoming, forcedErrors?: string[]): Promise<Outgoing> => {
    const r = route(incoming.url.pathname);
    if (!r) return json(404, { message: 'Not found' });
    if (r.service === 'ena') return handleEna(ena, incoming, r.rest, `${base}${ENA_ROOT}`, forcedErrors);
    if (r.service === 'taxonomy') return handleTaxonomy(taxonomy, incoming, r.rest);
    if (r.service === 'browser') return handleBrowser(ena, incoming, r.rest);
    if (r.service === 'tolid') return handleTolid(tolid, incoming, r.rest);
    if (r.service === 'localcontexts') return handleLocalContexts(localContexts, incoming, r.rest, `${base}/localcontexts`);
    if (r.service === 'ols') return handleOls(ols, incoming, r.rest);
    return handleZenodo(zenodo, incoming, r.rest, `${base}${ZENODO_ROOT}`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const incoming = await readIncoming(req, base);
    const path = incoming.url.pathname;
    const service = route(path)?.service ?? 'unknown';
    const query = new URLSearchParams(incoming.url.search);
    if (query.has('access_token')) query.set('access_token', 'redacted');
    const entry: RecordedRequest = {
      service,
      method: incoming.method,
      path,
      query: query.toString(),
      ...(authScheme(incoming) ? { auth: authScheme(incoming) } : {}),
      ...(incoming.headers['content-type'] ? { contentType: incoming.headers['content-type'] } : {}),
      ...(incoming.headers['content-length'] ? { contentLength: incoming.headers['content-length'] } : {}),
      body: incoming.body.toString('utf8'),
      status: 0,
      at: new Date(),
    };
    requests.push(entry);
    // Webin works on the call while the delay runs, and answers once both are over
    const answerAt = service === 'ena' && options.webinDelayMs ? Date.now() + options.webinDelayMs : 0;
    const answer = (out: Outgoing) => {
      const send = () => {
        entry.status = out.status;
        write(res, out);
      };
      const wait = answerAt - Date.now();
      if (wait > 0) void pause(wait).then(send);
      else send();
    };

    const enaSubmit = service === 'ena' && incoming.method === 'POST' && /\/(submit|queue)\/?$/.test(path);
    const fault = service === 'unknown' ? undefined : faults.take({ service, method: incoming.method, path, enaSubmit });
    if (fault?.kind === 'fail') {
      entry.fault = 'fail';
      answer({ status: fault.status, headers: { 'content-type': 'text/plain' }, body: fault.body });
      return;
    }
    if (fault?.kind === 'hang') {
      entry.fault = 'hang';
      if (fault.ms !== undefined) {
        // the request "reached the server": it is processed late, its answer lost if the client gave up
        const t = setTimeout(() => {
          timers.delete(t);
          void dispatch(incoming).then(answer, () => answer({ status: 500 }));
        }, fault.ms);
        timers.add(t);
      }
      return;
    }
    if (fault?.kind === 'errorReceipt') entry.fault = 'errorReceipt';
    answer(await dispatch(incoming, fault?.kind === 'errorReceipt' ? fault.messages : undefined));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      write(res, json(500, { message: err instanceof Error ? err.message : String(err) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  const [username, password] = Object.entries(enaAccounts)[0] ?? ['', ''];

  return {
    url: base,
    enaUrl: `${base}${ENA_ROOT}`,
    zenodoUrl: `${base}${ZENODO_ROOT}`,
    taxonomyUrl: `${base}${TAXONOMY_ROOT}`,
    browserUrl: `${base}${BROWSER_ROOT}`,
    enaSettings: {
      ENA_WEBIN_URL: `${base}${ENA_ROOT}`,
      ENA_USERNAME: username,
      ENA_PASSWORD: password,
      ENA_TAXONOMY_URL: `${base}${TAXONOMY_ROOT}`,
      ENA_BROWSER_URL: `${base}${BROWSER_ROOT}`,
    },
    tolidUrl: `${base}${TOLID_ROOT}`,
    tolid,
    localContextsUrl: `${base}${LOCAL_CONTEXTS_ROOT}`,
    localContexts,
    olsUrl: `${base}${OLS_ROOT}`,
    ols,
    smtpUrl: mail.url,
    mail,
    ftpUrl: uploadArea.url,
    uploadArea,
    credentials: { ena: { username, password }, zenodo: { token: zenodoTokens[0] ?? '' }, tolid: { token: tolidTokens[0] ?? '' } },
    faults,
    requests,
    ena,
    zenodo,
    taxonomy,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await uploadArea.close();
      await mail.close();
    },
  };
}
