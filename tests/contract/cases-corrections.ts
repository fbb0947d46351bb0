import { type Case, w } from './world';

/**
 * Corrections of registered samples by accession (lib/samples/corrections.ts): the preview's answers that need no
 * taxonomy (the world's taxonomy is a closed port) and the confirmation's refusals. tests/sample-corrections.test.ts
 * follows a correction through to ENA.
 */
export function correctionCases(): Record<string, Case[]> {
  const path = '/api/admin/samples/corrections';
  const one = (biosampleAccession: string, field: string, value: string) => ({ corrections: [{ biosampleAccession, field, value }] });
  const csv = { 'content-type': 'text/csv' };
  return {
    'POST /api/admin/samples/corrections': [
      {
        name: 'an unknown accession: an error of its row',
        path,
        key: 'owner',
        json: one('SAMEA999999990', 'TAXON_ID', '7227'),
        status: 200,
      },
      { name: 'a field the service owns', path, key: 'owner', json: one(w.biosample, 'public_name', 'ilAbcDefg1'), status: 200 },
      { name: 'an admin’s unknown field', path, key: 'admin', json: one(w.biosample, 'NOT_A_FIELD', 'x'), status: 200 },
      {
        name: 'a CSV body',
        path,
        key: 'owner',
        headers: csv,
        body: 'biosampleAccession,field,value\nSAMEA999999991,TAXON_ID,7227\n',
        status: 200,
      },
      {
        name: 'a CSV file',
        path,
        key: 'owner',
        form: () => {
          const fd = new FormData();
          fd.set('file', new File(['biosampleAccession,field,value\nSAMEA999999992,SEX,FEMALE\n'], 'corrections.csv'));
          return fd;
        },
        status: 200,
      },
      { name: 'a CSV with other columns', path, key: 'owner', headers: csv, body: 'accession,value\nSAMEA1,2\n', status: 400 },
      { name: 'no corrections', path, key: 'owner', json: { corrections: [] }, status: 400 },
      { name: 'plain text', path, key: 'owner', headers: { 'content-type': 'text/plain' }, body: 'SAMEA1 TAXON_ID 7227', status: 415 },
      { name: 'one who approves no samples', path, key: 'stranger', json: one(w.biosample, 'TAXON_ID', '7227'), status: 404 },
    ],
    'POST /api/admin/samples/corrections/{token}': [
      { name: 'a link that is not one', path: `${path}/not-a-link.at-all`, method: 'POST', key: 'owner', status: 404 },
      { name: 'one who approves no samples', path: `${path}/not-a-link.at-all`, method: 'POST', key: 'stranger', status: 404 },
    ],
  };
}
