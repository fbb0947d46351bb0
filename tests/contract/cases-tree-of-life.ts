import { minimalPdf } from '../fixtures/pdf';
import { type Case, UNKNOWN_UUID, w } from './world';

const prefill = (values: Record<string, string>) => encodeURIComponent(JSON.stringify(values));

/** Tree of Life manifests: validation, reports, permits, decisions, registration, submissions. */
export function treeOfLifeCases(): Record<string, Case[]> {
  const manifestForm =
    (file: Uint8Array, name = 'm.xlsx') =>
    () => {
      const fd = new FormData();
      fd.set('profile_id', w.dtolProfile);
      fd.set('file', new File([Buffer.from(file)], name));
      return fd;
    };
  const reportIdForm = (id: string) => () => {
    const fd = new FormData();
    fd.set('validation_report_id', id);
    return fd;
  };
  return {
    'POST /api/manifest/validate': [
      // a CSV that is text passes the quick checks; the validation job reads it later
      {
        name: 'accepted',
        path: '/api/manifest/validate',
        key: 'owner',
        form: manifestForm(new TextEncoder().encode('SPECIMEN_ID\nCONTRACT-1\n'), 'm.csv'),
        status: 202,
      },
      { name: 'empty file', path: '/api/manifest/validate', key: 'owner', form: manifestForm(new Uint8Array(0)), status: 422 },
      {
        name: 'a pdf',
        path: '/api/manifest/validate',
        key: 'owner',
        form: manifestForm(new Uint8Array(minimalPdf('no')), 'm.pdf'),
        status: 415,
      },
      {
        name: 'no file',
        path: '/api/manifest/validate',
        key: 'owner',
        form: () => {
          const fd = new FormData();
          fd.set('profile_id', w.dtolProfile);
          return fd;
        },
        status: 400,
      },
      {
        name: 'another’s profile',
        path: '/api/manifest/validate',
        key: 'stranger',
        form: manifestForm(new TextEncoder().encode('SPECIMEN_ID\n')),
        status: 404,
      },
      { name: 'not a form', path: '/api/manifest/validate', key: 'owner', json: { profile_id: w.dtolProfile }, status: 415 },
    ],
    'POST /api/manifest/validate/report': [
      { name: 'report', path: '/api/manifest/validate/report', key: 'owner', json: { validation_report_id: w.reportId }, status: 200 },
      { name: 'our name', path: '/api/manifest/validate/report', key: 'owner', json: { report_id: w.reportId }, status: 200 },
      { name: 'form', path: '/api/manifest/validate/report', key: 'owner', form: reportIdForm(w.reportId), status: 200 },
      {
        name: 'urlencoded',
        path: '/api/manifest/validate/report',
        key: 'owner',
        body: `validation_report_id=${w.reportId}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        status: 200,
      },
      { name: 'query', path: `/api/manifest/validate/report?validation_report_id=${w.reportId}`, key: 'owner', status: 200 },
      { name: 'no id', path: '/api/manifest/validate/report', key: 'owner', json: {}, status: 400 },
      { name: 'not an object', path: '/api/manifest/validate/report', key: 'owner', json: [w.reportId], status: 400 },
      {
        name: 'text',
        path: '/api/manifest/validate/report',
        key: 'owner',
        body: w.reportId,
        headers: { 'content-type': 'text/plain' },
        status: 415,
      },
      {
        name: 'another’s',
        path: '/api/manifest/validate/report',
        key: 'stranger',
        json: { validation_report_id: w.reportId },
        status: 404,
      },
    ],
    'GET /api/manifest/validate/report/{report_id}': [
      { name: 'report', path: `/api/manifest/validate/report/${w.reportId}`, key: 'owner', status: 200 },
      { name: 'with permits', path: `/api/manifest/validate/report/${w.ergaReportId}`, key: 'owner', status: 200 },
      { name: 'unknown', path: `/api/manifest/validate/report/${UNKNOWN_UUID}`, key: 'owner', status: 404 },
    ],
    'GET /api/manifest/validate/report/{report_id}/status': [
      { name: 'status', path: `/api/manifest/validate/report/${w.reportId}/status`, key: 'owner', status: 200 },
      { name: 'unknown', path: `/api/manifest/validate/report/${UNKNOWN_UUID}/status`, key: 'owner', status: 404 },
    ],
    'GET /api/manifest/validate/report/{report_id}/issues': [
      { name: 'page', path: `/api/manifest/validate/report/${w.reportId}/issues?limit=5`, key: 'owner', status: 200 },
      {
        name: 'one group',
        path: `/api/manifest/validate/report/${w.ergaReportId}/issues?severity=warning&field=&rule=template_prefill`,
        key: 'owner',
        status: 200,
      },
      { name: 'bad severity', path: `/api/manifest/validate/report/${w.reportId}/issues?severity=fatal`, key: 'owner', status: 400 },
      { name: 'bad limit', path: `/api/manifest/validate/report/${w.reportId}/issues?limit=0`, key: 'owner', status: 400 },
      { name: 'another’s', path: `/api/manifest/validate/report/${w.reportId}/issues`, key: 'stranger', status: 404 },
      { name: 'unknown', path: `/api/manifest/validate/report/${UNKNOWN_UUID}/issues`, key: 'owner', status: 404 },
    ],
    'GET /api/manifest/validate/report/{report_id}/groups': [
      { name: 'groups', path: `/api/manifest/validate/report/${w.reportId}/groups`, key: 'owner', status: 200 },
      { name: 'warnings', path: `/api/manifest/validate/report/${w.ergaReportId}/groups?severity=warning`, key: 'owner', status: 200 },
      { name: 'admin', path: `/api/manifest/validate/report/${w.reportId}/groups`, key: 'admin', status: 200 },
      { name: 'bad severity', path: `/api/manifest/validate/report/${w.reportId}/groups?severity=all`, key: 'owner', status: 400 },
      { name: 'another’s', path: `/api/manifest/validate/report/${w.reportId}/groups`, key: 'stranger', status: 404 },
    ],
    'POST /api/manifest/validations': [{ name: 'list', path: '/api/manifest/validations', method: 'POST', key: 'owner', status: 200 }],
    'GET /api/manifest/validations': [
      { name: 'list', path: `/api/manifest/validations?profile_id=${w.dtolProfile}`, key: 'owner', status: 200 },
      { name: 'bad limit', path: '/api/manifest/validations?limit=x', key: 'owner', status: 400 },
    ],
    'POST /api/manifest/validate/confirm': [
      {
        name: 'confirmed already',
        path: '/api/manifest/validate/confirm',
        key: 'owner',
        json: { validation_report_id: w.reportId },
        status: 409,
      },
      { name: 'form', path: '/api/manifest/validate/confirm', key: 'owner', form: reportIdForm(w.reportId), status: 409 },
      { name: 'query', path: `/api/manifest/validate/confirm?report_id=${w.reportId}`, key: 'owner', status: 409 },
      { name: 'no id', path: '/api/manifest/validate/confirm', key: 'owner', json: {}, status: 400 },
      {
        name: 'unknown',
        path: '/api/manifest/validate/confirm',
        key: 'owner',
        json: { validation_report_id: UNKNOWN_UUID },
        status: 404,
      },
    ],
    'GET /api/manifest/template': [
      { name: 'dtol', path: '/api/manifest/template?project=dtol', key: 'none', status: 200 },
      { name: 'unknown project', path: '/api/manifest/template?project=nope', key: 'none', status: 400 },
      { name: 'unknown version', path: '/api/manifest/template?project=dtol&version=0.1', key: 'none', status: 400 },
      {
        name: 'pre-filled',
        path: `/api/manifest/template?project=dtol&rows=2&prefill=${prefill({ COLLECTED_BY: 'Jane Smith' })}`,
        key: 'none',
        status: 200,
      },
      {
        name: 'a refused value',
        path: `/api/manifest/template?project=dtol&prefill=${prefill({ GAL: 'nowhere' })}`,
        key: 'none',
        status: 400,
      },
      { name: 'a profile’s', path: `/api/manifest/template?profile_id=${w.ergaProfile}`, key: 'owner', status: 200 },
      { name: 'another’s profile', path: `/api/manifest/template?profile_id=${w.dtolProfile}`, key: 'stranger', status: 404 },
      { name: 'a profile without a key', path: `/api/manifest/template?profile_id=${w.dtolProfile}`, key: 'none', status: 401 },
    ],
    'GET /api/manifest/{manifest_id}/spreadsheet': [
      { name: 'owner', path: `/api/manifest/${w.manifestId}/spreadsheet`, key: 'owner', status: 200 },
      { name: 'another member', path: `/api/manifest/${w.manifestId}/spreadsheet`, key: 'stranger', status: 404 },
      { name: 'unknown', path: `/api/manifest/${UNKNOWN_UUID}/spreadsheet`, key: 'owner', status: 404 },
      { name: 'no key', path: `/api/manifest/${w.manifestId}/spreadsheet`, key: 'none', status: 401 },
    ],
    'POST /api/manifest/validate/permits': [
      {
        name: 'not a pdf',
        path: '/api/manifest/validate/permits',
        key: 'owner',
        form: () => {
          const fd = new FormData();
          fd.set('validation_report_id', w.ergaReportId);
          fd.set('file', new File([new Uint8Array([1, 2, 3])], 'contract_permit.pdf'));
          return fd;
        },
        status: 409,
      },
      { name: 'not a form', path: '/api/manifest/validate/permits', key: 'owner', json: {}, status: 415 },
      {
        name: 'no file',
        path: '/api/manifest/validate/permits',
        key: 'owner',
        form: () => reportIdForm(w.ergaReportId)(),
        status: 400,
      },
    ],
    'GET /api/sample/{svc_id}/permits': [
      { name: 'list', path: `/api/sample/${w.ergaSvcId}/permits`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/sample/${w.ergaSvcId}/permits`, key: 'stranger', status: 404 },
    ],
    'GET /api/sample/{svc_id}/permits/{stored_name}': [
      { name: 'pdf', path: `/api/sample/${w.ergaSvcId}/permits/${w.permitName}`, key: 'owner', status: 200 },
      { name: 'unknown', path: `/api/sample/${w.ergaSvcId}/permits/none.pdf`, key: 'owner', status: 404 },
    ],
    'POST /api/sample/decision': [
      {
        name: 'reject',
        path: '/api/sample/decision',
        key: 'owner',
        json: { svc_ids: [w.pendingSvcId], decision: 'reject', reason: 'Contract' },
        status: 200,
      },
      {
        name: 'already decided',
        path: '/api/sample/decision',
        key: 'owner',
        json: { svc_ids: [w.svcId], decision: 'accept' },
        status: 409,
      },
      { name: 'bad decision', path: '/api/sample/decision', key: 'owner', json: { svc_ids: [w.svcId], decision: 'maybe' }, status: 400 },
      {
        name: 'not a manager of it',
        path: '/api/sample/decision',
        key: 'stranger',
        json: { svc_ids: [w.pendingSvcId], decision: 'accept' },
        status: 404,
      },
    ],
    'GET /api/sample/pending': [
      { name: 'list', path: '/api/sample/pending?limit=5', key: 'owner', status: 200 },
      { name: 'bad limit', path: '/api/sample/pending?limit=0', key: 'owner', status: 400 },
    ],
    'POST /api/sample/register': [
      { name: 'not accepted by a manager', path: '/api/sample/register', key: 'owner', json: { svc_ids: [w.pendingSvcId] }, status: 409 },
      { name: 'no ids', path: '/api/sample/register', key: 'owner', json: {}, status: 400 },
      { name: 'not a manager of it', path: '/api/sample/register', key: 'stranger', json: { svc_ids: [w.svcId] }, status: 404 },
    ],
    'POST /api/sample/rights/check': [
      { name: 'nothing to check', path: '/api/sample/rights/check', key: 'owner', json: { svc_ids: [w.ergaSvcId] }, status: 200 },
      { name: 'no ids', path: '/api/sample/rights/check', key: 'owner', json: { svc_ids: [] }, status: 400 },
      { name: 'not a manager of it', path: '/api/sample/rights/check', key: 'stranger', json: { svc_ids: [w.ergaSvcId] }, status: 404 },
    ],
    'GET /api/sample/private': [
      { name: 'list', path: '/api/sample/private?limit=5', key: 'owner', status: 200 },
      { name: 'bad limit', path: '/api/sample/private?limit=0', key: 'owner', status: 400 },
    ],
    'GET /api/submissions': [
      { name: 'mine', path: '/api/submissions?limit=5', key: 'owner', status: 200 },
      { name: 'bad limit', path: '/api/submissions?limit=-5', key: 'owner', status: 400 },
    ],
    'GET /api/registrations/refused': [
      { name: 'mine', path: '/api/registrations/refused?limit=5', key: 'owner', status: 200 },
      { name: 'an admin: all', path: '/api/registrations/refused', key: 'admin', status: 200 },
      { name: 'bad limit', path: '/api/registrations/refused?limit=0', key: 'owner', status: 400 },
      { name: 'no key', path: '/api/registrations/refused', key: 'none', status: 401 },
    ],
    'GET /api/submissions/{submission_id}': [
      { name: 'mine', path: `/api/submissions/${w.submissionId}`, key: 'owner', status: 200 },
      { name: 'dashes', path: '/api/submissions/------------------------------------', key: 'owner', status: 404 },
      { name: 'another’s', path: `/api/submissions/${w.submissionId}`, key: 'stranger', status: 404 },
    ],
    'GET /api/submissions/{submission_id}/receipts/{n}': [
      { name: 'the first receipt', path: `/api/submissions/${w.submissionId}/receipts/0`, key: 'owner', status: 200 },
      { name: 'no such answer', path: `/api/submissions/${w.submissionId}/receipts/999`, key: 'owner', status: 404 },
      { name: 'not a number', path: `/api/submissions/${w.submissionId}/receipts/first`, key: 'owner', status: 400 },
      { name: 'another’s', path: `/api/submissions/${w.submissionId}/receipts/0`, key: 'stranger', status: 404 },
    ],
  };
}
