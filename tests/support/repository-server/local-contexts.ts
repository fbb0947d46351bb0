import { type Incoming, json, type Outgoing } from './http';

/**
 * The Local Contexts Hub's API in memory: `GET /projects/{unique_id}` (with or without the trailing slash the real
 * hub's Django routes use) answers the project with its `project_privacy`, 404 for an id it does not hold. Tests
 * register projects and later make them public, as a community does on the hub.
 */

export type ProjectPrivacy = 'Public' | 'Private' | 'Contributor';

export class LocalContextsState {
  private readonly projects = new Map<string, { title: string; privacy: ProjectPrivacy }>();
  /** every project id asked about, in order */
  readonly asked: string[] = [];

  setProject(uniqueId: string, privacy: ProjectPrivacy, title = `Project ${uniqueId.slice(0, 8)}`): void {
    this.projects.set(uniqueId.toLowerCase(), { title, privacy });
  }

  project(uniqueId: string) {
    return this.projects.get(uniqueId.toLowerCase());
  }
}

export function handleLocalContexts(state: LocalContextsState, incoming: Incoming, rest: string, base: string): Outgoing {
  const m = /^\/projects\/([^/]+)\/?$/.exec(rest);
  if (!m?.[1]) return json(404, { detail: 'Not found.' });
  if (incoming.method !== 'GET') return json(405, { detail: `Method "${incoming.method}" not allowed.` });
  const id = decodeURIComponent(m[1]);
  state.asked.push(id);
  const project = state.project(id);
  if (!project) return json(404, { detail: 'Not found.' });
  return json(200, {
    unique_id: id,
    providers_id: null,
    title: project.title,
    project_privacy: project.privacy,
    date_added: '2025-01-05T18:18:17.078138Z',
    date_modified: '2025-06-01T09:00:00.000000Z',
    project_page: `${base}/projects/${id}`,
    notice: [],
    tk_labels: [],
    bc_labels: [],
  });
}
