import type { Logger } from 'pino';
import { z } from 'zod';
import { trimEndOf } from '@/lib/values/text';
import { RepositoryProtocolError } from './errors';
import { type HttpOptions, httpRequest, joinUrl, plumbingOf } from './http';

/**
 * The Local Contexts Hub (https://localcontextshub.org), where Indigenous communities attach Traditional Knowledge
 * and Biocultural Labels and Notices to projects. An ERGA sample naming one of its projects may be shared only once
 * the community has made the project public: `GET {LOCAL_CONTEXTS_URL}/projects/{project_id}` answers the project
 * with its `project_privacy` (`Public`, `Private`, `Contributor`, or `Discoverable` in older answers); an unknown id
 * answers 404.
 */

export type ProjectPrivacyAnswer =
  /** the hub knows the project; `privacy` is its `project_privacy` as the hub spelled it */
  | { found: true; projectId: string; privacy: string; public: boolean; title: string | null; page: string | null }
  | { found: false; projectId: string };

export interface LocalContextsClient {
  /** the hub's web page of a project, for people to follow */
  projectPage(projectId: string): string;
  project(projectId: string): Promise<ProjectPrivacyAnswer>;
}

export interface LocalContextsClientOptions extends Omit<HttpOptions, 'service'> {
  /** e.g. https://localcontextshub.org/api/v1 */
  baseUrl: string;
}

// the hub sends more (labels, notices, contributors…); only what decides a sample's rights is read
const ProjectSchema = z.looseObject({
  unique_id: z.string().optional(),
  title: z.string().nullish(),
  project_privacy: z.string(),
  project_page: z.string().nullish(),
});

// project ids are the hub's UUIDs (the manifest rule checks the pattern); anything else cannot exist at the hub
const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The hub's site for people: the API root without its `/api/vN`. */
const siteOf = (baseUrl: string) => trimEndOf(baseUrl, '/').replace(/\/api(\/v\d+)?$/, '');

/** A project's page at the hub, for people to follow, from the API root (LOCAL_CONTEXTS_URL). */
export const localContextsProjectPage = (baseUrl: string, projectId: string): string =>
  joinUrl(siteOf(baseUrl), 'projects', encodeURIComponent(projectId.trim()));

export function createLocalContextsClient(options: LocalContextsClientOptions): LocalContextsClient {
  const http = plumbingOf(options, 'local_contexts');
  return {
    projectPage: (projectId) => localContextsProjectPage(options.baseUrl, projectId),
    async project(raw) {
      const projectId = raw.trim();
      if (!PROJECT_ID.test(projectId)) return { found: false, projectId };
      const res = await httpRequest(http, {
        method: 'GET',
        url: joinUrl(options.baseUrl, 'projects', projectId),
        headers: { accept: 'application/json' },
        accept: [404],
      });
      if (res.status === 404) return { found: false, projectId };
      let parsed: z.infer<typeof ProjectSchema>;
      try {
        parsed = ProjectSchema.parse(JSON.parse(res.body));
      } catch {
        throw new RepositoryProtocolError(
          'local_contexts',
          'the Local Contexts Hub answered with something that is not a project',
          res.body,
        );
      }
      const privacy = parsed.project_privacy.trim();
      return {
        found: true,
        projectId,
        privacy,
        public: privacy.toLowerCase() === 'public',
        title: parsed.title ?? null,
        page: parsed.project_page ?? null,
      };
    },
  };
}

/** The client for the settings; `extra` tunes timeouts for a caller that is waited on (a request, not the job). */
export function localContextsClientFromConfig(
  config: { LOCAL_CONTEXTS_URL: string },
  logger: Logger,
  extra: Partial<LocalContextsClientOptions> = {},
): LocalContextsClient {
  return createLocalContextsClient({ baseUrl: config.LOCAL_CONTEXTS_URL, logger, ...extra });
}
