import { buildSampleTemplate } from '@/lib/biodata-samples/template';
import { normaliseChecklist } from '@/lib/sample-checklists/normalise';
import { readCopoChecklists } from '@/lib/seed/sample-checklists';
import { barcodingSheet, coiRow } from '../fixtures/barcodes/sheet';
import { fillSampleSheet, validSampleRows } from '../fixtures/biodata/sheet';
import { type Case, w } from './world';

// a sample sheet of COPO's Darwin Core checklist (known without ENA), made before the world exists
const dwc = normaliseChecklist((await readCopoChecklists()).find((c) => c.id === 'COPO_DWC')!);
const SHEET = await fillSampleSheet(await buildSampleTemplate(dwc), validSampleRows(dwc.fields, 2, 'contract'));

// a barcoding sheet naming a specimen no profile has
const BARCODES = await barcodingSheet([coiRow('NHMUK000000001', 'CONTRACT001-26', { STUDY: 'PRJEB12345' })]);
const barcodesForm = () => {
  const fd = new FormData();
  fd.set('file', new File([Buffer.from(BARCODES)], 'barcodes.xlsx'));
  return fd;
};

const sheetForm = (checklistId: string) => () => {
  const fd = new FormData();
  fd.set('checklist_id', checklistId);
  fd.set('file', new File([Buffer.from(SHEET)], 'samples.xlsx'));
  return fd;
};

/** Sample checklists, a biodata profile's samples (template, upload and list), and a ToL profile's barcodes. */
export function biodataCases(): Record<string, Case[]> {
  const samples = `/api/profiles/${w.biodataProfile}/samples`;
  const tol = `/api/profiles/${w.dtolProfile}/samples`;
  const barcodes = `/api/profiles/${w.dtolProfile}/barcodes`;
  return {
    'POST /api/profiles/{profile_id}/barcodes': [
      { name: 'a specimen the profile does not have', path: barcodes, key: 'owner', form: barcodesForm, status: 422 },
      { name: 'a biodata profile', path: `/api/profiles/${w.biodataProfile}/barcodes`, key: 'owner', form: barcodesForm, status: 409 },
      { name: 'another’s profile', path: barcodes, key: 'stranger', form: barcodesForm, status: 404 },
      { name: 'no key', path: barcodes, form: barcodesForm, status: 401 },
    ],
    'GET /api/sample/biosampleAccessions/{biosampleAccessions}/sequence_data': [
      { name: 'a registered sample', path: `/api/sample/biosampleAccessions/${w.biosample}/sequence_data`, status: 200 },
      { name: 'several, one unknown', path: `/api/sample/biosampleAccessions/${w.biosample},SAMEA0/sequence_data`, status: 200 },
    ],
    'GET /api/profiles/{profile_id}/sequence-data': [
      { name: 'all kinds', path: `/api/profiles/${w.biodataProfile}/sequence-data`, key: 'owner', status: 200 },
      { name: 'reads only', path: `/api/profiles/${w.biodataProfile}/sequence-data?kind=read`, key: 'owner', status: 200 },
      { name: 'an unknown kind', path: `/api/profiles/${w.biodataProfile}/sequence-data?kind=photos`, key: 'owner', status: 400 },
      { name: 'another’s', path: `/api/profiles/${w.biodataProfile}/sequence-data`, key: 'stranger', status: 404 },
    ],
    'POST /api/profiles/{profile_id}/sequence-data/action/refresh': [
      { name: 'asked of ENA', path: `/api/profiles/${w.biodataProfile}/sequence-data/action/refresh`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/profiles/${w.biodataProfile}/sequence-data/action/refresh`, key: 'stranger', status: 404 },
    ],
    'GET /api/profiles/{profile_id}/barcodes': [
      { name: 'the profile’s', path: barcodes, key: 'owner', status: 200 },
      { name: 'another’s', path: barcodes, key: 'stranger', status: 404 },
    ],
    'POST /api/profiles/{profile_id}/barcodes/action/submit': [
      { name: 'none waiting', path: `${barcodes}/action/submit`, key: 'owner', status: 409 },
      { name: 'another’s', path: `${barcodes}/action/submit`, key: 'stranger', status: 404 },
    ],
    'GET /api/sample/checklists': [
      { name: 'all', path: '/api/sample/checklists', status: 200 },
      { name: 'searched', path: '/api/sample/checklists?q=darwin', status: 200 },
      { name: 'sequence checklists', path: '/api/sample/checklists?kind=sequence', status: 200 },
      { name: 'an unknown kind', path: '/api/sample/checklists?kind=reads', status: 400 },
    ],
    'GET /api/sample/checklists/{checklist_id}': [
      { name: 'COPO’s Darwin Core', path: '/api/sample/checklists/COPO_DWC', status: 200 },
      { name: 'unknown', path: '/api/sample/checklists/ERC999999', status: 404 },
    ],
    'GET /api/profiles/{profile_id}/samples/template': [
      { name: 'a checklist’s', path: `${samples}/template?checklist_id=COPO_DWC`, key: 'owner', status: 200 },
      { name: 'no checklist', path: `${samples}/template`, key: 'owner', status: 400 },
      { name: 'an unknown checklist', path: `${samples}/template?checklist_id=ERC999999`, key: 'owner', status: 404 },
      { name: 'another’s profile', path: `${samples}/template?checklist_id=COPO_DWC`, key: 'stranger', status: 404 },
    ],
    'POST /api/profiles/{profile_id}/samples': [
      { name: 'a sheet', path: samples, key: 'owner', form: sheetForm('COPO_DWC'), status: 202 },
      { name: 'a Tree of Life profile', path: tol, key: 'owner', form: sheetForm('COPO_DWC'), status: 400 },
      { name: 'an unknown checklist', path: samples, key: 'owner', form: sheetForm('ERC999999'), status: 404 },
      { name: 'no key', path: samples, form: sheetForm('COPO_DWC'), status: 401 },
    ],
    'GET /api/profiles/{profile_id}/samples': [
      { name: 'a page', path: `${samples}?limit=5`, key: 'owner', status: 200 },
      { name: 'by state', path: `${samples}?status=confirmed`, key: 'owner', status: 200 },
      { name: 'an unknown state', path: `${samples}?status=lost`, key: 'owner', status: 400 },
      { name: 'another’s', path: samples, key: 'stranger', status: 404 },
    ],
  };
}
