import { messages, rowRanges } from '../messages';
import type { ExistingSample, ManifestProject } from '../types';
import { missingTokenOf } from '../values';
import { cellKey, type RuleState, type WorkRow } from './context';

interface SpecimenFormat {
  regex: RegExp;
  /** "EI_ followed by 5 digits" */
  expected: string;
}

const format = (prefix: string, suffix: string, suffixText: string): SpecimenFormat => ({
  regex: new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${suffix}$`),
  expected: `${prefix} followed by ${suffixText}`,
});

/** SPECIMEN_ID formats by GAL (docs/tol-manifests.md §1.6); GALs not listed (Cambridge, Edinburgh) have none. */
const DTOL_FORMATS: Record<string, SpecimenFormat> = {
  'EARLHAM INSTITUTE': format('EI_', '\\d{5}', '5 digits'),
  'MARINE BIOLOGICAL ASSOCIATION': format('MBA', '-\\d{6}-\\d{3}[A-Z]', "'-', 6 digits, '-', 3 digits and a capital letter"),
  'NATURAL HISTORY MUSEUM': format('NHMUK', '\\d{9}', '9 digits'),
  'ROYAL BOTANIC GARDEN EDINBURGH': format('EDTOL', '\\d{5}', '5 digits'),
  'ROYAL BOTANIC GARDENS KEW': format('KDTOL', '\\d{5}', '5 digits'),
  'SANGER INSTITUTE': format('SAN', '\\d{7}', '7 digits'),
  'UNIVERSITY OF OXFORD': format('Ox', '\\d{6}', '6 digits'),
};

const DTOLENV_FORMATS: Record<string, SpecimenFormat> = {
  ...DTOL_FORMATS,
  'MARINE BIOLOGICAL ASSOCIATION': format('MBA', '-\\d{5}-\\d{3}[A-Z]', "'-', 5 digits, '-', 3 digits and a capital letter"),
};

const ASG_PREFIXES: Record<string, string> = {
  'DALHOUSIE UNIVERSITY': 'DU',
  'GEOMAR HELMHOLTZ CENTRE': 'GHC',
  'NOVA SOUTHEASTERN UNIVERSITY': 'NSU',
  'PORTLAND STATE UNIVERSITY': 'PORT',
  'QUEEN MARY UNIVERSITY OF LONDON': 'QMOUL',
  'SENCKENBERG RESEARCH INSTITUTE': 'SENCK',
  'THE SAINSBURY LABORATORY': 'SL',
  'UNIVERSITY OF BRITISH COLUMBIA': 'UOBC',
  'UNIVERSITY OF CALIFORNIA': 'UCALI',
  'UNIVERSITY OF DERBY': 'UDUK',
  'UNIVERSITY OF OREGON': 'UOREG',
  'UNIVERSITY OF RHODE ISLAND': 'URI',
  'UNIVERSITY OF VIENNA (CEPHALOPOD)': 'VIEC',
  'UNIVERSITY OF VIENNA (MOLLUSC)': 'VIEM',
};
const ASG_FORMATS: Record<string, SpecimenFormat> = Object.fromEntries(
  Object.entries(ASG_PREFIXES).map(([partner, prefix]) => [partner, format(prefix, '\\d{7}', '7 digits')]),
);

const ERGA_FORMAT: SpecimenFormat = {
  regex: /^ERGA_[A-Z]{1,10}_\d{3}[\dX]_\d{2,3}$/,
  expected: "ERGA_ followed by 1 to 10 capital letters, '_', 3 digits and a digit or X, '_' and 2 or 3 digits (e.g. ERGA_ABC_1234_01)",
};

/** The format a row's SPECIMEN_ID must have, and how to name its source in the message; null when free. */
export function specimenFormatFor(project: ManifestProject, values: Record<string, string>): { by: string; format: SpecimenFormat } | null {
  if (project === 'erga') return { by: 'ERGA', format: ERGA_FORMAT };
  const galField = project === 'asg' ? 'PARTNER' : 'GAL';
  const gal = values[galField] ?? '';
  const table = project === 'asg' ? ASG_FORMATS : project === 'dtolenv' ? DTOLENV_FORMATS : DTOL_FORMATS;
  // own keys only: a cell reading `toString` names no GAL
  const f = Object.hasOwn(table, gal) ? table[gal] : undefined;
  return f ? { by: `${galField} ${gal}`, format: f } : null;
}

const isTarget = (row: WorkRow): boolean => (row.values.SYMBIONT ?? 'TARGET') === 'TARGET';

/** SPECIMEN_ID format per row, and WHOLE_ORGANISM at most once per specimen in the manifest. */
export function checkSpecimens(s: RuleState): void {
  if (!s.present.has('SPECIMEN_ID')) return;
  const wholeOrganism = new Map<string, WorkRow[]>();
  for (const row of s.rows) {
    const id = row.values.SPECIMEN_ID ?? '';
    if (!id || s.failed.has(cellKey(row.rowNumber, 'SPECIMEN_ID'))) continue;
    const fail = (message: string) => {
      s.failed.add(cellKey(row.rowNumber, 'SPECIMEN_ID'));
      s.report.error('specimen_id', { row: row.rowNumber, field: 'SPECIMEN_ID', value: id, message });
    };
    if (missingTokenOf(id)) {
      fail(messages.specimenToken(id, row.rowNumber));
      continue;
    }
    const rule = specimenFormatFor(s.definition.project, row.values);
    if (rule && !rule.format.regex.test(id)) {
      fail(messages.specimenFormat(id, row.rowNumber, rule.by, rule.format.expected));
      continue;
    }
    const parts = (row.values.ORGANISM_PART ?? '').split('|').map((p) => p.trim());
    if (isTarget(row) && parts.includes('WHOLE_ORGANISM')) {
      const seen = wholeOrganism.get(id);
      if (seen) seen.push(row);
      else wholeOrganism.set(id, [row]);
    }
  }
  for (const [id, rows] of wholeOrganism) {
    const all = rowRanges(rows.map((r) => r.rowNumber));
    for (const row of rows.slice(1)) {
      s.report.error('whole_organism_duplicate', {
        row: row.rowNumber,
        field: 'ORGANISM_PART',
        value: row.values.ORGANISM_PART ?? '',
        message: messages.wholeOrganism(id, all),
      });
    }
  }
}

/**
 * One TAXON_ID per specimen: inside the manifest, and against specimens already stored as targets in any profile
 * (ignoring the stored sample a row updates, whose taxon the row may be correcting). Runs after the taxonomy rule
 * has filled blank TAXON_IDs.
 */
export async function checkSpecimenTaxa(s: RuleState, sampleOfRow: ReadonlyMap<number, ExistingSample>): Promise<void> {
  if (!s.present.has('SPECIMEN_ID') || !s.fields.has('TAXON_ID')) return;
  const targets = s.rows.filter(
    (r) =>
      isTarget(r) &&
      r.values.SPECIMEN_ID &&
      r.values.TAXON_ID &&
      !s.failed.has(cellKey(r.rowNumber, 'SPECIMEN_ID')) &&
      !s.failed.has(cellKey(r.rowNumber, 'TAXON_ID')),
  );
  const firstTaxon = new Map<string, string>();
  const error = (row: WorkRow, taxon: string, inManifest: boolean) =>
    s.report.error('specimen_taxon', {
      row: row.rowNumber,
      field: 'TAXON_ID',
      value: row.values.TAXON_ID ?? '',
      message: messages.specimenTaxon(row.rowNumber, row.values.SPECIMEN_ID ?? '', taxon, inManifest),
    });
  const consistent: WorkRow[] = [];
  for (const row of targets) {
    const id = row.values.SPECIMEN_ID ?? '';
    const taxon = row.values.TAXON_ID ?? '';
    const first = firstTaxon.get(id);
    if (first === undefined) firstTaxon.set(id, taxon);
    if (first !== undefined && first !== taxon) error(row, first, true);
    else consistent.push(row);
  }
  if (!firstTaxon.size) return;
  const stored = await s.ctx.existingSamples.bySpecimenId([...firstTaxon.keys()]);
  const storedBySpecimen = new Map<string, ExistingSample[]>();
  for (const e of stored) {
    if (e.symbiont !== 'TARGET') continue;
    const list = storedBySpecimen.get(e.specimenId);
    if (list) list.push(e);
    else storedBySpecimen.set(e.specimenId, [e]);
  }
  for (const row of consistent) {
    const own = sampleOfRow.get(row.rowNumber)?.sampleId;
    const clash = storedBySpecimen.get(row.values.SPECIMEN_ID ?? '')?.find((e) => e.sampleId !== own && e.taxonId !== row.values.TAXON_ID);
    if (clash) error(row, clash.taxonId, false);
  }
}
