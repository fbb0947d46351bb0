import { type Case, w } from './world';

/** The portal's own reads: a profile's summary, the values its samples used, and the review queue by manifest. */
export function portalCases(): Record<string, Case[]> {
  const summary = (profile: string) => `/api/profiles/${profile}/samples/summary`;
  const common = (profile: string) => `/api/profiles/${profile}/common-values`;
  return {
    'GET /api/profiles/{profile_id}/samples/summary': [
      { name: 'DTOL: manifests and statuses', path: summary(w.dtolProfile), key: 'owner', status: 200 },
      { name: 'ERGA: with its permit', path: summary(w.ergaProfile), key: 'owner', status: 200 },
      { name: 'biodata: empty', path: summary(w.biodataProfile), key: 'owner', status: 200 },
      { name: 'an admin', path: summary(w.dtolProfile), key: 'admin', status: 200 },
      { name: 'another’s', path: summary(w.dtolProfile), key: 'stranger', status: 404 },
      { name: 'unknown', path: summary('0123456789abcdef01234567'), key: 'owner', status: 404 },
      { name: 'no key', path: summary(w.dtolProfile), key: 'none', status: 401 },
    ],
    'GET /api/profiles/{profile_id}/common-values': [
      { name: 'DTOL: the values its samples used', path: common(w.dtolProfile), key: 'owner', status: 200 },
      { name: 'ERGA: its centre pre-filled', path: common(w.ergaProfile), key: 'owner', status: 200 },
      { name: 'biodata: no manifest', path: common(w.biodataProfile), key: 'owner', status: 400 },
      { name: 'another’s', path: common(w.dtolProfile), key: 'stranger', status: 404 },
      { name: 'no key', path: common(w.dtolProfile), key: 'none', status: 401 },
    ],
    'GET /api/sample/review': [
      { name: 'awaiting', path: '/api/sample/review', key: 'owner', status: 200 },
      { name: 'decided', path: '/api/sample/review?state=decided&limit=5', key: 'owner', status: 200 },
      { name: 'an admin', path: '/api/sample/review?state=decided', key: 'admin', status: 200 },
      { name: 'no projects managed: empty', path: '/api/sample/review', key: 'stranger', status: 200 },
      { name: 'unknown state', path: '/api/sample/review?state=maybe', key: 'owner', status: 400 },
      { name: 'bad limit', path: '/api/sample/review?limit=0', key: 'owner', status: 400 },
      { name: 'oldest first, one profile', path: `/api/sample/review?sort=oldest&profile=${w.dtolProfile}`, key: 'owner', status: 200 },
      { name: 'one manifest', path: `/api/sample/review?manifest=${w.manifestId}`, key: 'owner', status: 200 },
      { name: 'decided, by an uploader', path: '/api/sample/review?state=decided&uploader=nobody', key: 'owner', status: 200 },
      { name: 'unknown sort', path: '/api/sample/review?sort=random', key: 'owner', status: 400 },
      { name: 'manifest not a UUID', path: '/api/sample/review?manifest=latest', key: 'owner', status: 400 },
      { name: 'no key', path: '/api/sample/review', key: 'none', status: 401 },
    ],
  };
}
