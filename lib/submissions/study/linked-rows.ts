import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { DataFile } from './staging';

/**
 * What the rows of a reads-schema object (an assembly, a sequence annotation) gather from the sheets that point at
 * it (docs/studies-and-checklists.md §15): its BioSample, its data files with their MD5s and types, the read rows it
 * was made from, and the other values its child rows give.
 */

export interface LinkedFile extends DataFile {
  /** the sheet's file type (FASTA, gff, …) */
  type: string;
}

export interface LinkedRow {
  id: string;
  /** the row's own values, then those of its one-per-row children (assembly_genome), its own first */
  values: Record<string, string>;
  biosample: string;
  files: LinkedFile[];
  /** identifiers of the read rows it references */
  readRows: string[];
  where: string;
}

const refused = (message: string) => new RepositoryRefused('ena', message);

/** The rows of the component ENA takes as `enaName`, each with what its child sheets give. */
export function linkedRowsOf(def: ChecklistDefinition, study: StudyRow, enaName: string): LinkedRow[] {
  const component = def.components.find((c) => c.repositories.ena === enaName);
  const rows = component ? (study.components[component.key] ?? []) : [];
  if (!component || !rows.length) return [];
  const idTerm = component.fields.find((f) => f.identifier)?.termName ?? '';
  const readComponent = def.components.find((c) => c.repositories.ena === 'read')?.key;
  const sampleRef = component.fields.find((f) => f.referencedComponent === 'sample')?.termName;
  const accessionTerm = def.components.find((c) => c.key === 'sample')?.fields.find((f) => f.type === 'BIOSAMPLEACCESSION_FIELD')?.termName;
  const children = def.components.flatMap((c) => {
    const ref = c.fields.find((f) => f.referencedComponent === component.key);
    return ref ? [{ component: c, ref: ref.termName }] : [];
  });

  return rows.map((row) => {
    const id = row[idTerm] ?? '';
    const where = `Sheet ${component.key}, ${id}`;
    const sample = sampleRef ? study.components.sample?.find((s) => s.sample_id === row[sampleRef]) : undefined;
    const biosample = sample && accessionTerm ? (sample[accessionTerm] ?? '') : '';
    if (!biosample) throw refused(`${where}: the row's sample has no BioSample accession to reference.`);
    const values: Record<string, string> = { ...row };
    const files: LinkedFile[] = [];
    const readRows: string[] = [];
    for (const { component: child, ref } of children) {
      const fileField = child.fields.find((f) => f.type === 'file');
      const readRef = readComponent ? child.fields.find((f) => f.referencedComponent === readComponent) : undefined;
      for (const c of study.components[child.key] ?? []) {
        if (c[ref] !== id) continue;
        if (fileField) {
          const name = c[fileField.termName] ?? '';
          const md5 = (c[`${fileField.termName}_checksum`] ?? '').toLowerCase();
          if (!/^[0-9a-f]{32}$/.test(md5)) throw refused(`Sheet ${child.key}: ${name} of ${id} has no MD5 checksum in the sheet.`);
          files.push({ name, md5, type: c[`${fileField.termName}_type`] ?? '' });
        } else if (readRef) {
          const read = c[readRef.termName];
          if (read) readRows.push(read);
        } else {
          for (const [k, v] of Object.entries(c)) if (v && !(k in values)) values[k] = v;
        }
      }
    }
    return { id, values, biosample, files, readRows, where };
  });
}
