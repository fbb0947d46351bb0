import type { Case } from './world';

/**
 * The reference data admins edit (lib/reference/): the associated types and sequencing centres, and an associated
 * type's acceptance email previewed. tests/reference-data.test.ts and tests/acceptance-email.test.ts follow them
 * further; here each answer is held to the document. Names made here are the contract run's own (CONTRACT_…).
 */
export function referenceCases(): Record<string, Case[]> {
  const types = '/api/admin/associated-types';
  const centres = '/api/admin/sequencing-centres';
  const type = {
    name: 'CONTRACT_TYPE',
    label: 'Contract type',
    approval_required: true,
    approval_required_on_update: true,
    selectable: true,
    acceptance_text: 'Thank you for {{profile_title}}.',
  };
  const centre = { name: 'CONTRACT_CENTRE', label: 'Contract centre', approval_required: false, contacts: [], selectable: true };
  return {
    [`GET ${types}`]: [
      { name: 'an admin', path: types, key: 'admin', status: 200 },
      { name: 'not an admin', path: types, key: 'owner', status: 404 },
      { name: 'no key', path: types, key: 'none', status: 401 },
    ],
    [`POST ${types}`]: [
      { name: 'a new type', path: types, key: 'admin', json: type, status: 201 },
      { name: 'the same name again', path: types, key: 'admin', json: type, status: 409 },
      { name: 'no label', path: types, key: 'admin', json: { ...type, name: 'CONTRACT_OTHER', label: '' }, status: 400 },
      { name: 'not an admin', path: types, key: 'owner', json: type, status: 404 },
    ],
    [`PATCH ${types}/{name}`]: [
      { name: 'retired', path: `${types}/CONTRACT_TYPE`, method: 'PATCH', key: 'admin', json: { selectable: false }, status: 200 },
      { name: 'an unknown type', path: `${types}/NO_SUCH_TYPE`, method: 'PATCH', key: 'admin', json: { selectable: false }, status: 404 },
      { name: 'an unknown field', path: `${types}/CONTRACT_TYPE`, method: 'PATCH', key: 'admin', json: { colour: 'red' }, status: 400 },
    ],
    [`POST ${types}/{name}/acceptance-preview`]: [
      {
        name: 'BGE’s text',
        path: `${types}/BGE/acceptance-preview`,
        key: 'admin',
        json: { acceptance_text: 'Thanks for {{profile_title}}: ship {{tubes}}.' },
        status: 200,
      },
      {
        name: 'an unknown placeholder',
        path: `${types}/BGE/acceptance-preview`,
        key: 'admin',
        json: { acceptance_text: 'Hello {{nobody}}' },
        status: 400,
      },
      {
        name: 'an unknown type',
        path: `${types}/NO_SUCH_TYPE/acceptance-preview`,
        key: 'admin',
        json: { acceptance_text: 'x' },
        status: 404,
      },
      { name: 'not an admin', path: `${types}/BGE/acceptance-preview`, key: 'owner', json: { acceptance_text: 'x' }, status: 404 },
    ],
    [`GET ${centres}`]: [
      { name: 'an admin', path: centres, key: 'admin', status: 200 },
      { name: 'not an admin', path: centres, key: 'stranger', status: 404 },
    ],
    [`POST ${centres}`]: [
      { name: 'a new centre', path: centres, key: 'admin', json: centre, status: 201 },
      { name: 'the same name again', path: centres, key: 'admin', json: centre, status: 409 },
      {
        name: 'a contact with no address',
        path: centres,
        key: 'admin',
        json: { ...centre, name: 'CONTRACT_C2', contacts: [{ name: 'A' }] },
        status: 400,
      },
    ],
    [`PATCH ${centres}/{name}`]: [
      {
        name: 'a contact added',
        path: `${centres}/CONTRACT_CENTRE`,
        method: 'PATCH',
        key: 'admin',
        json: { contacts: [{ name: 'Ada Lab', email: 'lab@example.org', role: 'sample reception' }] },
        status: 200,
      },
      {
        name: 'an unknown centre',
        path: `${centres}/NO_SUCH_CENTRE`,
        method: 'PATCH',
        key: 'admin',
        json: { selectable: false },
        status: 404,
      },
    ],
  };
}
