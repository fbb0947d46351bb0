import { type Case, UNKNOWN_UUID, w } from './world';

const usernameOnly = () => {
  const form = new FormData();
  form.set('username', 'nobody');
  return form;
};

/** Accounts, administration, health, statistics, the public query API, the browsers and mapping. */
export function accountAndQueryCases(): Record<string, Case[]> {
  const queryList = (path: string, extra: Case[] = []): Case[] => [
    { name: 'json', path, status: 200 },
    { name: 'csv', path: `${path}${path.includes('?') ? '&' : '?'}return_type=csv`, status: 200 },
    { name: 'an unknown standard', path: `${path}${path.includes('?') ? '&' : '?'}standard=nope`, status: 400 },
    ...extra,
  ];
  return {
    'GET /api/health': [{ name: 'up', path: '/api/health', key: 'none', status: 200 }],
    'GET /api/metrics': [
      { name: 'an admin', path: '/api/metrics', key: 'admin', status: 200 },
      { name: 'no credentials', path: '/api/metrics', key: 'none', status: 401 },
      { name: 'not admin', path: '/api/metrics', key: 'owner', status: 404 },
    ],
    'POST /api/apiKey': [
      { name: 'wrong password', path: '/api/apiKey', key: 'none', json: { username: 'nobody', password: 'wrong' }, status: 401 },
      { name: 'no fields', path: '/api/apiKey', key: 'none', json: {}, status: 400 },
      { name: 'a form without the password', path: '/api/apiKey', key: 'none', form: () => usernameOnly(), status: 400 },
      { name: 'no body', path: '/api/apiKey', method: 'POST', key: 'none', status: 400 },
      {
        name: 'plain text',
        path: '/api/apiKey',
        key: 'none',
        body: 'username=a',
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
    ],
    'GET /api/account': [
      { name: 'mine', path: '/api/account', key: 'owner', status: 200 },
      { name: 'no key', path: '/api/account', key: 'none', status: 401 },
    ],
    'GET /api/account/keys': [
      { name: 'mine', path: '/api/account/keys?limit=5', key: 'owner', status: 200 },
      { name: 'bad limit', path: '/api/account/keys?limit=0', key: 'owner', status: 400 },
    ],
    'POST /api/account/keys': [
      { name: 'a new key', path: '/api/account/keys', key: 'stranger', json: { name: 'contract' }, status: 201 },
      { name: 'no body: no name', path: '/api/account/keys', method: 'POST', key: 'stranger', status: 201 },
      { name: 'a name too long', path: '/api/account/keys', key: 'stranger', json: { name: 'x'.repeat(500) }, status: 400 },
      { name: 'no key', path: '/api/account/keys', key: 'none', json: { name: 'contract' }, status: 401 },
    ],
    'DELETE /api/account/keys/{id}': [
      { name: 'another user’s key', path: `/api/account/keys/${w.ownerKeyId}`, method: 'DELETE', key: 'stranger', status: 404 },
      { name: 'not a number', path: '/api/account/keys/first', method: 'DELETE', key: 'stranger', status: 400 },
      { name: 'no key', path: `/api/account/keys/${w.ownerKeyId}`, method: 'DELETE', key: 'none', status: 401 },
    ],
    'DELETE /api/account/sessions': [
      { name: 'every session of the caller', path: '/api/account/sessions', method: 'DELETE', key: 'stranger', status: 204 },
      { name: 'no key', path: '/api/account/sessions', method: 'DELETE', key: 'none', status: 401 },
    ],
    'GET /api/admin/users': [
      { name: 'admin', path: '/api/admin/users?limit=5', key: 'admin', status: 200 },
      { name: 'not admin', path: '/api/admin/users', key: 'owner', status: 404 },
      { name: 'a search', path: '/api/admin/users?q=EXAMPLE.org&limit=5', key: 'admin', status: 200 },
      { name: 'a search too long', path: `/api/admin/users?q=${'x'.repeat(201)}`, key: 'admin', status: 400 },
    ],
    'POST /api/admin/users/{id}/unlock': [
      { name: 'unlock', path: `/api/admin/users/${w.ownerUserId}/unlock`, method: 'POST', key: 'admin', status: 200 },
      { name: 'unknown', path: '/api/admin/users/999999/unlock', method: 'POST', key: 'admin', status: 404 },
      { name: 'not a number', path: '/api/admin/users/owner/unlock', method: 'POST', key: 'admin', status: 400 },
      { name: 'not admin', path: `/api/admin/users/${w.ownerUserId}/unlock`, method: 'POST', key: 'owner', status: 404 },
    ],
    // the contract's world sends no email (no SMTP_URL): resets by email are not offered; tests/password-reset.test.ts has them with one
    'POST /api/password-reset': [
      { name: 'no email here', path: '/api/password-reset', key: 'none', json: { login: 'owner@example.org' }, status: 404 },
      { name: 'no login', path: '/api/password-reset', key: 'none', json: {}, status: 400 },
      {
        name: 'plain text',
        path: '/api/password-reset',
        method: 'POST',
        key: 'none',
        body: 'login=a',
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
    ],
    'POST /api/password-reset/confirm': [
      {
        name: 'a made-up token',
        path: '/api/password-reset/confirm',
        key: 'none',
        json: { token: `1-zzzz-${'A'.repeat(43)}`, password: 'long enough password' },
        status: 400,
      },
      { name: 'a short password', path: '/api/password-reset/confirm', key: 'none', json: { token: 'x', password: 'short' }, status: 400 },
      {
        name: 'plain text',
        path: '/api/password-reset/confirm',
        method: 'POST',
        key: 'none',
        body: 'token=a',
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
    ],
    'POST /api/admin/users': [
      {
        name: 'create',
        path: '/api/admin/users',
        key: 'admin',
        json: { username: 'contract-user', password: 'contract-user-password', member_of: ['dtol'] },
        status: 201,
      },
      {
        name: 'twice',
        path: '/api/admin/users',
        key: 'admin',
        json: { username: 'contract-user', password: 'contract-user-password' },
        status: 409,
      },
      { name: 'short password', path: '/api/admin/users', key: 'admin', json: { username: 'short-pw', password: 'x' }, status: 400 },
      {
        name: 'an unknown project',
        path: '/api/admin/users',
        key: 'admin',
        json: { username: 'plants', password: 'contract-user-password', member_of: ['plants'] },
        status: 400,
      },
      {
        name: 'not admin',
        path: '/api/admin/users',
        key: 'owner',
        json: { username: 'by-owner', password: 'contract-user-password' },
        status: 404,
      },
    ],
    'PATCH /api/admin/users/{id}': [
      {
        name: 'update',
        path: `/api/admin/users/${w.ownerUserId}`,
        method: 'PATCH',
        key: 'admin',
        json: { email: 'owner@example.org' },
        status: 200,
      },
      { name: 'unknown', path: '/api/admin/users/999999', method: 'PATCH', key: 'admin', json: { email: 'x@example.org' }, status: 404 },
      { name: 'not an email', path: `/api/admin/users/${w.ownerUserId}`, method: 'PATCH', key: 'admin', json: { email: 'x' }, status: 400 },
      {
        name: 'not a number',
        path: '/api/admin/users/owner',
        method: 'PATCH',
        key: 'admin',
        json: { email: 'x@example.org' },
        status: 400,
      },
    ],
    'GET /api/admin/jobs': [
      { name: 'list', path: '/api/admin/jobs?limit=5', key: 'admin', status: 200 },
      { name: 'open only', path: '/api/admin/jobs?open=true', key: 'admin', status: 200 },
      { name: 'bad open', path: '/api/admin/jobs?open=maybe', key: 'admin', status: 400 },
      { name: 'not admin', path: '/api/admin/jobs', key: 'owner', status: 404 },
    ],
    // The world's letter is a validation whose report has no upload to validate again: it cannot run again (409).
    'POST /api/admin/jobs/failed/{id}/retry': [
      { name: 'retried', path: `/api/admin/jobs/failed/${w.retryableLetterId}/retry`, method: 'POST', key: 'admin', status: 200 },
      { name: 'twice', path: `/api/admin/jobs/failed/${w.retryableLetterId}/retry`, method: 'POST', key: 'admin', status: 409 },
      { name: 'its upload is gone', path: `/api/admin/jobs/failed/${w.deadLetterId}/retry`, method: 'POST', key: 'admin', status: 409 },
      { name: 'unknown', path: `/api/admin/jobs/failed/${UNKNOWN_UUID}/retry`, method: 'POST', key: 'admin', status: 404 },
      { name: 'not a uuid', path: '/api/admin/jobs/failed/first/retry', method: 'POST', key: 'admin', status: 404 },
      { name: 'not admin', path: `/api/admin/jobs/failed/${w.deadLetterId}/retry`, method: 'POST', key: 'owner', status: 404 },
    ],
    'GET /api/manifest': queryList('/api/manifest'),
    'GET /api/manifest/sequencing_centre': queryList('/api/manifest/sequencing_centre?sequencing_centre=SANGER'),
    'GET /api/manifest/current_version': [
      { name: 'all', path: '/api/manifest/current_version', key: 'none', status: 200 },
      { name: 'one', path: '/api/manifest/current_version?manifest_type=dtol', key: 'none', status: 200 },
      { name: 'an unknown type', path: '/api/manifest/current_version?manifest_type=plants', key: 'none', status: 400 },
      { name: 'an unknown return type', path: '/api/manifest/current_version?return_type=xml', key: 'none', status: 400 },
    ],
    // a date path that is no date at all (yesterday/today) is no route, as in the reference (docs/api-behaviour.md §1.6)
    'GET /api/manifest/{project}/{from}/{to}': queryList(`/api/manifest/dtol/${w.day}/${w.day}`, [
      { name: 'a date that does not parse', path: '/api/manifest/dtol/2024-13-45/2025-01-01', status: 400 },
      { name: 'an unknown project', path: `/api/manifest/plants/${w.day}/${w.day}`, status: 400 },
    ]),
    'GET /api/manifest/{from}/{to}': queryList(`/api/manifest/${w.day}/${w.day}`, [
      { name: 'from after to', path: '/api/manifest/2025-01-02/2025-01-01', status: 400 },
    ]),
    'GET /api/manifest/{manifest_id}/sample_status': queryList(`/api/manifest/${w.manifestId}/sample_status`, [
      { name: 'not a uuid', path: '/api/manifest/ABCD-1234/sample_status', status: 400 },
    ]),
    'GET /api/manifest/{manifest_id}': queryList(`/api/manifest/${w.manifestId}`, [
      { name: 'rocrate', path: `/api/manifest/${w.manifestId}?return_type=rocrate`, status: 200 },
      { name: 'dwc', path: `/api/manifest/${w.manifestId}?standard=dwc`, status: 200 },
      { name: 'rocrate of no samples', path: `/api/manifest/${UNKNOWN_UUID}?return_type=rocrate`, status: 400 },
      { name: 'an unknown return type', path: `/api/manifest/${w.manifestId}?return_type=xml`, status: 400 },
    ]),
    'GET /api/sample/associated_tol_project': queryList('/api/sample/associated_tol_project?values=BGE'),
    'GET /api/sample/updatable_fields': queryList('/api/sample/updatable_fields?project=dtol'),
    'GET /api/sample/svc_id/{svc_ids}': queryList(`/api/sample/svc_id/${w.svcId}`, [
      { name: 'not an svc_id', path: '/api/sample/svc_id/nope', status: 400 },
    ]),
    'GET /api/sample/biosampleAccessions/{biosampleAccessions}': queryList(`/api/sample/biosampleAccessions/${w.biosample}`),
    'GET /api/sample/biosampleAccession/{biosampleAccessions}': queryList(`/api/sample/biosampleAccession/${w.biosample}`),
    'GET /api/sample/sample_field/{field}/{values}': queryList(`/api/sample/sample_field/TAXON_ID/${w.taxonId}`),
    'GET /api/sample/sequencing_centre': queryList('/api/sample/sequencing_centre?sequencing_centre=SANGER'),
    'GET /api/sample/taxon_id/{taxon_ids}': queryList(`/api/sample/taxon_id/${w.taxonId}`),
    'GET /api/sample/with_submitted_bioimages': [
      { name: 'json', path: '/api/sample/with_submitted_bioimages?project=dtol', key: 'none', status: 200 },
      { name: 'bad date', path: '/api/sample/with_submitted_bioimages?d_from=nope', key: 'none', status: 400 },
    ],
    'GET /api/sample/tube_or_well_ids': [
      { name: 'json', path: '/api/sample/tube_or_well_ids?project=dtol', key: 'none', status: 200 },
      { name: 'csv', path: '/api/sample/tube_or_well_ids?project=dtol&return_type=csv', key: 'none', status: 200 },
    ],
    'POST /api/sample/tube_or_well_ids': [
      { name: 'json', path: '/api/sample/tube_or_well_ids?project=dtol', method: 'POST', key: 'none', status: 200 },
    ],
    'POST /api/profile/tube_or_well_ids': [
      { name: 'json', path: '/api/profile/tube_or_well_ids?profile_type=dtol', method: 'POST', key: 'none', status: 200 },
    ],
    'GET /api/profile/tube_or_well_ids': [
      { name: 'json', path: '/api/profile/tube_or_well_ids?profile_type=dtol', key: 'none', status: 200 },
    ],
    'GET /api/sample/project/manifest_version/fields': queryList(
      '/api/sample/project/manifest_version/fields?project=dtol&manifest_version=2.5',
      [{ name: 'no version', path: '/api/sample/project/manifest_version/fields?project=dtol', status: 400 }],
    ),
    'GET /api/sample/{from}/{to}': queryList(`/api/sample/${w.day}/${w.day}`, [
      { name: 'a date that does not parse', path: '/api/sample/2024-13-45/2025-01-01', status: 400 },
    ]),
    'GET /api/sample/{project}': queryList('/api/sample/dtol', [{ name: 'an unknown project', path: '/api/sample/plants', status: 400 }]),
    'GET /api/audit/samples': queryList(`/api/audit/samples?svc_id=${w.svcId}`),
    'GET /api/audit/sample/manifest_id/{manifest_id}': queryList(`/api/audit/sample/manifest_id/${w.manifestId}`, [
      { name: 'not a uuid', path: '/api/audit/sample/manifest_id/nope', status: 400 },
    ]),
    'GET /api/audit/sample/update_type/{update_type}': queryList('/api/audit/sample/update_type/system', [
      { name: 'unknown type', path: '/api/audit/sample/update_type/nope', status: 400 },
    ]),
    'GET /api/audit/sample/{from}/{to}': queryList(`/api/audit/sample/${w.day}/${w.day}`, [
      { name: 'a date that does not parse', path: '/api/audit/sample/2024-13-45/2025-01-01', status: 400 },
    ]),
    'GET /api/audit/sample/{field}/{field_value}': queryList('/api/audit/sample/SPECIMEN_ID/NHMUK014425123', [
      { name: 'a field outside the enumeration', path: `/api/audit/sample/svc_id/${w.svcId}`, status: 400 },
    ]),
    'GET /api/stats/number_of_users': [{ name: 'count', path: '/api/stats/number_of_users', key: 'none', status: 200 }],
    'GET /api/stats/number_of_profiles': [{ name: 'count', path: '/api/stats/number_of_profiles', key: 'none', status: 200 }],
    'GET /api/stats/number_of_datafiles': [{ name: 'count', path: '/api/stats/number_of_datafiles', key: 'none', status: 200 }],
    'GET /api/stats/number_of_samples': [
      { name: 'count', path: '/api/stats/number_of_samples', key: 'none', status: 200 },
      { name: 'bad date', path: '/api/stats/number_of_samples?d_from=nope', key: 'none', status: 400 },
    ],
    'GET /api/stats/number_of_samples/{sample_type}': [
      { name: 'count', path: '/api/stats/number_of_samples/dtol', key: 'none', status: 200 },
      { name: 'an unknown type', path: '/api/stats/number_of_samples/plants', key: 'none', status: 400 },
    ],
    'GET /api/stats/tol_projects': [
      { name: 'json', path: '/api/stats/tol_projects', key: 'none', status: 200 },
      { name: 'csv', path: '/api/stats/tol_projects?return_type=csv', key: 'none', status: 200 },
    ],
    'GET /api/stats/associated_tol_projects': [
      { name: 'json', path: '/api/stats/associated_tol_projects', key: 'none', status: 200 },
      { name: 'csv', path: '/api/stats/associated_tol_projects?return_type=csv', key: 'none', status: 200 },
    ],
    'GET /api/stats/summary': [{ name: 'summary', path: '/api/stats/summary', key: 'none', status: 200 }],
    'GET /api/stats/dashboard': [{ name: 'dashboard', path: '/api/stats/dashboard', key: 'none', status: 200 }],
    'GET /api/mapping': [
      { name: 'json', path: '/api/mapping?project=dtol&standard=dwc', key: 'none', status: 200 },
      { name: 'csv', path: '/api/mapping?project=dtol&standard=dwc&return_type=csv', key: 'none', status: 200 },
      { name: 'pairs', path: '/api/mapping?project=dtol&standard=mixs&pairs=true', key: 'none', status: 200 },
      { name: 'no project', path: '/api/mapping?standard=dwc', key: 'none', status: 400 },
      { name: 'unknown standard', path: '/api/mapping?standard=nope', key: 'none', status: 400 },
    ],
    'GET /api/samples/browse': [
      { name: 'json', path: '/api/samples/browse?project=dtol&limit=5', key: 'owner', status: 200 },
      { name: 'csv', path: '/api/samples/browse?project=dtol&return_type=csv', key: 'owner', status: 200 },
      { name: 'bad sort', path: '/api/samples/browse?sort=nope', key: 'owner', status: 400 },
      { name: 'an unknown centre', path: '/api/samples/browse?sequencing_centre=Atlantis', key: 'owner', status: 400 },
      { name: 'no key', path: '/api/samples/browse', key: 'none', status: 401 },
    ],
    'GET /api/audit/browse': [
      { name: 'json', path: '/api/audit/browse?limit=5', key: 'owner', status: 200 },
      { name: 'csv', path: '/api/audit/browse?return_type=csv', key: 'owner', status: 200 },
      { name: 'one sample', path: `/api/audit/browse?svc_id=${w.svcId}`, key: 'owner', status: 200 },
      { name: 'a tube and a specimen', path: '/api/audit/browse?tube=FD00000001&specimen=SAN0000001', key: 'owner', status: 200 },
      { name: 'bad date', path: '/api/audit/browse?from=nope', key: 'owner', status: 400 },
      { name: 'not a sample id', path: '/api/audit/browse?svc_id=nope', key: 'owner', status: 400 },
      { name: 'no key', path: '/api/audit/browse', key: 'none', status: 401 },
    ],
  };
}
