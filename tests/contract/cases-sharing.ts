import { createProfile } from '../support/flows';
import type { Harness } from '../support/harness';
import { type Case, keys } from './world';

/**
 * Sharing and groups: a profile of the owner's shared with a colleague, a group of the owner's, and things made only
 * to be removed or given away (so no other case loses what it reads).
 */
export const s = { ownerName: '', profile: '', spareProfile: '', colleague: '', group: 0, spareGroup: 0, spareShare: 0 };
const json = { 'content-type': 'application/json' };

export async function buildSharingWorld(h: Harness): Promise<void> {
  s.colleague = (await h.user({ memberOf: ['dtol'] })).user.username;
  s.ownerName = ((await (await h.request('/api/account', { key: keys.owner })).json()) as { username: string }).username;
  s.profile = await createProfile(h, keys.owner, { title: 'Contract shared', description: '', type: 'dtol' });
  s.spareProfile = await createProfile(h, keys.owner, { title: 'Contract given away', description: '', type: 'dtol' });
  const post = async (path: string, body: unknown) =>
    (await (await h.request(path, { method: 'POST', key: keys.owner, headers: json, body: JSON.stringify(body) })).json()) as {
      id: number;
    };
  s.group = (await post('/api/groups', { name: 'Contract lab' })).id;
  s.spareGroup = (await post('/api/groups', { name: 'Contract spare' })).id;
  s.spareShare = (await post(`/api/profiles/${s.profile}/shares`, { group_id: s.spareGroup, role: 'viewer' })).id;
}

export function sharingCases(): Record<string, Case[]> {
  const shares = `/api/profiles/${s.profile}/shares`;
  const group = `/api/groups/${s.group}`;
  return {
    'POST /api/profiles/{profile_id}/shares': [
      { name: 'with a colleague', path: shares, key: 'owner', json: { username: s.colleague, role: 'viewer' }, status: 201 },
      { name: 'the role changed', path: shares, key: 'owner', json: { username: s.colleague, role: 'contributor' }, status: 200 },
      { name: 'with a group', path: shares, key: 'owner', json: { group_id: s.group, role: 'viewer' }, status: 201 },
      { name: 'nobody', path: shares, key: 'owner', json: { username: 'no-such-person', role: 'viewer' }, status: 400 },
      { name: 'no role', path: shares, key: 'owner', json: { username: s.colleague }, status: 400 },
      { name: 'another’s profile', path: shares, key: 'stranger', json: { username: s.colleague, role: 'viewer' }, status: 404 },
      { name: 'no key', path: shares, json: { username: s.colleague, role: 'viewer' }, status: 401 },
    ],
    'GET /api/profiles/{profile_id}/shares': [
      { name: 'the owner', path: shares, key: 'owner', status: 200 },
      { name: 'another’s profile', path: shares, key: 'stranger', status: 404 },
    ],
    'DELETE /api/profiles/{profile_id}/shares/{share_id}': [
      { name: 'another’s profile', path: `${shares}/${s.spareShare}`, method: 'DELETE', key: 'stranger', status: 404 },
      { name: 'unknown', path: `${shares}/999999`, method: 'DELETE', key: 'owner', status: 404 },
      { name: 'not a number', path: `${shares}/x`, method: 'DELETE', key: 'owner', status: 400 },
      { name: 'ended', path: `${shares}/${s.spareShare}`, method: 'DELETE', key: 'owner', status: 204 },
    ],
    'PUT /api/profiles/{profile_id}/owner': [
      {
        name: 'another’s profile',
        path: `/api/profiles/${s.spareProfile}/owner`,
        method: 'PUT',
        key: 'stranger',
        json: { username: s.colleague },
        status: 404,
      },
      {
        name: 'nobody',
        path: `/api/profiles/${s.spareProfile}/owner`,
        method: 'PUT',
        key: 'owner',
        json: { username: 'no-such-person' },
        status: 400,
      },
      {
        name: 'given away',
        path: `/api/profiles/${s.spareProfile}/owner`,
        method: 'PUT',
        key: 'owner',
        json: { username: s.colleague },
        status: 200,
      },
    ],
    'GET /api/groups': [
      { name: 'the caller’s', path: '/api/groups', key: 'owner', status: 200 },
      { name: 'no key', path: '/api/groups', status: 401 },
    ],
    'POST /api/groups': [
      { name: 'a new group', path: '/api/groups', key: 'stranger', json: { name: 'Contract stranger’s lab' }, status: 201 },
      { name: 'a name used', path: '/api/groups', key: 'owner', json: { name: 'Contract lab' }, status: 409 },
      { name: 'no name', path: '/api/groups', key: 'owner', json: { name: ' ' }, status: 400 },
    ],
    'GET /api/groups/{group_id}': [
      { name: 'the owner', path: group, key: 'owner', status: 200 },
      { name: 'another’s', path: group, key: 'stranger', status: 404 },
      { name: 'not a number', path: '/api/groups/x', key: 'owner', status: 400 },
    ],
    'POST /api/groups/{group_id}/members': [
      { name: 'a colleague', path: `${group}/members`, key: 'owner', json: { username: s.colleague }, status: 200 },
      { name: 'nobody', path: `${group}/members`, key: 'owner', json: { username: 'no-such-person' }, status: 400 },
      { name: 'another’s', path: `${group}/members`, key: 'stranger', json: { username: s.colleague }, status: 404 },
    ],
    'DELETE /api/groups/{group_id}/members/{username}': [
      { name: 'another’s', path: `${group}/members/${s.colleague}`, method: 'DELETE', key: 'stranger', status: 404 },
      { name: 'the owner', path: `${group}/members/${s.ownerName}`, method: 'DELETE', key: 'owner', status: 409 },
      { name: 'a colleague', path: `${group}/members/${s.colleague}`, method: 'DELETE', key: 'owner', status: 204 },
    ],
    'DELETE /api/groups/{group_id}': [
      { name: 'another’s', path: `/api/groups/${s.spareGroup}`, method: 'DELETE', key: 'stranger', status: 404 },
      { name: 'deleted', path: `/api/groups/${s.spareGroup}`, method: 'DELETE', key: 'owner', status: 204 },
    ],
  };
}
