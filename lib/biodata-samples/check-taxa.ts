import type { ParsedRow, TaxonomyLookup, TaxonRecord } from '@/lib/manifests/contract';
import { TaxonomyUnavailableError } from '@/lib/manifests/errors';
import type { Reporter } from '@/lib/manifests/rules/context';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { missingTerm } from './missing-terms';
import { SCIENTIFIC_NAME, TAXON_ID } from './sheet';

const TAXON_ID_SHAPE = /^[0-9]+$/;

/**
 * Each row's TAXON_ID and SCIENTIFIC_NAME through ENA's taxonomy, each taxon asked once: the id must be one ENA takes
 * samples of, the name must be its name (a synonym is replaced by it), and either is filled from the other. The
 * checklist's taxon fields (a host's scientific name) must be names ENA knows.
 */
export async function checkTaxa(report: Reporter, rows: ParsedRow[], taxonomy: TaxonomyLookup, checklist: SampleChecklist): Promise<void> {
  const byId = new Map<string, Promise<TaxonRecord | null>>();
  const byName = new Map<string, Promise<TaxonRecord[]>>();
  const ask = async <T>(lookup: () => Promise<T>): Promise<T> => {
    try {
      return await lookup();
    } catch (err) {
      throw new TaxonomyUnavailableError(err instanceof Error ? err.message : String(err));
    }
  };
  const id = (taxId: string) => {
    let p = byId.get(taxId);
    if (!p) {
      p = ask(() => taxonomy.byTaxId(taxId));
      byId.set(taxId, p);
    }
    return p;
  };
  const named = (name: string) => {
    const key = name.toLowerCase();
    let p = byName.get(key);
    if (!p) {
      p = ask(() => taxonomy.byScientificName(name));
      byName.set(key, p);
    }
    return p;
  };
  const taxonFields = checklist.fields.filter((f) => f.type === 'taxon' && !f.role);
  for (const row of rows) {
    const r = row.rowNumber;
    const taxId = (row.values[TAXON_ID] ?? '').trim();
    const name = (row.values[SCIENTIFIC_NAME] ?? '').trim();
    if (!taxId && !name) {
      report.error('taxon_missing', {
        row: r,
        field: TAXON_ID,
        value: '',
        message: `Row ${r} names no organism: give its TAXON_ID or SCIENTIFIC_NAME.`,
      });
    } else if (taxId && !TAXON_ID_SHAPE.test(taxId)) {
      report.error('taxon_id_integer', {
        row: r,
        field: TAXON_ID,
        value: taxId,
        message: `Invalid TAXON_ID ${taxId} at row ${r}: a taxon id is a whole number.`,
      });
    } else if (taxId) {
      const record = await id(taxId);
      if (!record) {
        report.error('taxon_not_found', {
          row: r,
          field: TAXON_ID,
          value: taxId,
          message: `TAXON_ID ${taxId} at row ${r} is not a taxon ENA's taxonomy knows.`,
        });
      } else if (record.submittable !== 'true') {
        report.error('taxon_not_submittable', {
          row: r,
          field: TAXON_ID,
          value: taxId,
          message: `TAXON_ID ${taxId} (${record.scientificName}) at row ${r} is not one ENA registers samples of: give the species (or lower rank) the sample is of.`,
        });
      } else if (!name) {
        row.values[SCIENTIFIC_NAME] = record.scientificName;
        report.warn('name_filled', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: '',
          message: `SCIENTIFIC_NAME at row ${r} is filled with ${record.scientificName}, ENA's name of TAXON_ID ${taxId}.`,
        });
      } else if (name.toLowerCase() !== record.scientificName.toLowerCase()) {
        const synonym = (await named(name)).some((t) => t.taxId === record.taxId);
        if (synonym) {
          row.values[SCIENTIFIC_NAME] = record.scientificName;
          report.warn('taxon_synonym', {
            row: r,
            field: SCIENTIFIC_NAME,
            value: name,
            message: `${name} at row ${r} is a synonym: it is stored as ${record.scientificName}, ENA's name of TAXON_ID ${taxId}.`,
          });
        } else {
          report.error('taxon_mismatch', {
            row: r,
            field: SCIENTIFIC_NAME,
            value: name,
            message: `SCIENTIFIC_NAME ${name} at row ${r} is not the name of TAXON_ID ${taxId}, which ENA's taxonomy calls ${record.scientificName}.`,
          });
        }
      } else row.values[SCIENTIFIC_NAME] = record.scientificName;
    } else {
      const found = await named(name);
      const ids = [...new Set(found.map((t) => t.taxId))];
      const only = found[0];
      if (ids.length !== 1 || !only) {
        report.error('name_unresolved', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: name,
          message: ids.length
            ? `SCIENTIFIC_NAME ${name} at row ${r} names several taxa (${ids.join(', ')}): give the TAXON_ID of the one meant.`
            : `SCIENTIFIC_NAME ${name} at row ${r} is not a name ENA's taxonomy knows: check its spelling, or give its TAXON_ID.`,
        });
      } else if (only.submittable !== 'true') {
        report.error('taxon_not_submittable', {
          row: r,
          field: SCIENTIFIC_NAME,
          value: name,
          message: `${name} at row ${r} (TAXON_ID ${only.taxId}) is not one ENA registers samples of: give the species (or lower rank) the sample is of.`,
        });
      } else {
        row.values[TAXON_ID] = only.taxId;
        row.values[SCIENTIFIC_NAME] = only.scientificName;
        report.warn('taxon_filled', {
          row: r,
          field: TAXON_ID,
          value: '',
          message: `TAXON_ID at row ${r} is filled with ${only.taxId}, ENA's taxon of ${only.scientificName}.`,
        });
      }
    }
    for (const f of taxonFields) {
      const value = (row.values[f.name] ?? '').trim();
      if (!value || missingTerm(value)) continue;
      if (!(await named(value)).length) {
        report.error('taxon_field', {
          row: r,
          field: f.name,
          value,
          message: `${value} in column ${f.name} at row ${r} is not a name ENA's taxonomy knows.`,
        });
      }
    }
  }
}
