import { REPOSITORIES, type Repository } from '@/lib/repositories/contract';
import { type ComponentDefinition, type FieldDefinition, TERM_TYPES, type TermType, type WorkbookSheets } from './contract';
import { correctedExample, DROPPED_PATTERNS, MAPPING_KEY_FIXES } from './corrections';
import { compilePattern } from './patterns';

export interface SchemaChecklist {
  checklistId: string;
  position: number;
  name: string;
  description: string;
  standard: string;
  technology: string;
  /** the checklist's components in schema order, each with the checklist's terms */
  components: ComponentDefinition[];
}

export interface SchemaDefinition {
  /** workbook name for messages */
  source: string;
  checklists: SchemaChecklist[];
}

/** A schema workbook that fails the load checks of docs/studies-and-checklists.md §2; every problem is listed. */
export class SchemaWorkbookError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source} cannot be loaded:\n  ${problems.join('\n  ')}`);
    this.name = 'SchemaWorkbookError';
  }
}

type Row = Record<string, string>;

/** Whether a row names its key; rows without one define nothing. */
function hasKey<R extends Row>(r: R): r is R & { key: string } {
  return Boolean(r.key);
}

/** Rows of a sheet as objects keyed by the (trimmed) header, with their 1-based sheet row number. */
function records(sheets: WorkbookSheets, sheet: string, required: string[], problems: string[]): (Row & { _row: string })[] {
  const rows = sheets[sheet];
  if (!rows) {
    problems.push(`Missing sheet '${sheet}'`);
    return [];
  }
  const [header = [], ...body] = rows;
  for (const col of required) if (!header.includes(col)) problems.push(`Sheet '${sheet}' has no '${col}' column`);
  const out: (Row & { _row: string })[] = [];
  body.forEach((cells, i) => {
    if (!cells.some((c) => c)) return;
    const row: Row & { _row: string } = { _row: String(i + 2) };
    header.forEach((h, j) => {
      if (h) row[h] = cells[j] ?? '';
    });
    out.push(row);
  });
  return out;
}

const truthy = (v: string) => /^(true|1|yes)$/i.test(v.trim());

// a copo_name is a plain attribute name; REMBI's sample.description holds a stray cell reference instead
const MAPPING_KEY = /^[A-Za-z_][\w ]*$/;

/**
 * Turns the sheets of one schema workbook into checklist definitions, applying the workbook load checks of
 * docs/studies-and-checklists.md §2 (regexes compile, no empty key cells, no duplicate term_name or term_label inside a
 * component of a checklist, every referenced component has an identifier in the checklist). Any failure rejects
 * the whole workbook.
 */
export function parseSchemaWorkbook(source: string, sheets: WorkbookSheets): SchemaDefinition {
  const problems: string[] = [];

  const checklistRows = records(sheets, 'checklists', ['key', 'name'], problems).filter(hasKey);
  const componentRows = records(sheets, 'components', ['key', 'name'], problems).filter(hasKey);
  const mapping = new Map<string, string>();
  for (const r of records(sheets, 'term_mapping', [], problems)) {
    if (r.copo_name) mapping.set(r.copo_name, r.ENA || r.ena || r.copo_name);
  }
  const allowed = allowedValues(sheets.allowed_values ?? []);
  const dataRows = sheets.data ?? [];
  if (!sheets.data) problems.push(`Missing sheet 'data'`);
  const [dataHeader = []] = dataRows;
  const checklistIds = checklistRows.map((c) => c.key);
  for (const id of checklistIds) {
    if (!dataHeader.includes(id)) problems.push(`Sheet 'data' has no column for checklist '${id}'`);
  }
  const terms = records(sheets, 'data', ['component_name', 'term_name', 'term_label', 'term_type'], problems);
  const componentKeys = new Set(componentRows.map((c) => c.key));

  // per term, the definition shared by every checklist; requiredness is per checklist
  const parsed: { component: string; field: Omit<FieldDefinition, 'mandatory'>; flags: Row; row: string }[] = [];
  for (const r of terms) {
    for (const col of ['component_name', 'term_name', 'term_label', 'term_type']) {
      if (!r[col]) problems.push(`Empty value in '${col}' at row ${r._row}`);
    }
    if (!r.component_name || !r.term_name || !r.term_label || !r.term_type) continue;
    const component = r.component_name;
    if (!componentKeys.has(component)) problems.push(`Unknown component '${component}' at row ${r._row}`);
    const type = TERM_TYPES.find((t) => t === r.term_type);
    if (!type) {
      problems.push(`Unknown term_type '${r.term_type}' at row ${r._row}`);
      continue;
    }
    const term = { termName: r.term_name, label: r.term_label, type };
    const field = termDefinition(source, component, term, r, allowed, mapping, problems);
    parsed.push({ component, field, flags: r, row: r._row });
  }

  const checklists = checklistRows.map((c, position): SchemaChecklist => {
    const id = c.key;
    const components: ComponentDefinition[] = [];
    for (const comp of componentRows) {
      const fields: FieldDefinition[] = parsed.flatMap((p) => {
        const flag = p.flags[id]?.trim() ?? '';
        return p.component === comp.key && /^[MO]$/i.test(flag) ? [{ ...p.field, mandatory: flag.toUpperCase() === 'M' }] : [];
      });
      if (!fields.length) continue;
      components.push({
        key: comp.key,
        name: comp.name ?? comp.key,
        description: comp.description ?? '',
        required: (comp.component_required ?? '').toUpperCase() === 'M',
        repositories: repositoriesOf(comp),
        fields,
      });
    }
    checkChecklist(id, components, problems);
    return {
      checklistId: id,
      position,
      name: c.name ?? '',
      description: c.description ?? '',
      standard: c.standard ?? '',
      technology: c.technology ?? '',
      components,
    };
  });

  if (problems.length) throw new SchemaWorkbookError(source, problems);
  return { source, checklists };
}

function termDefinition(
  source: string,
  component: string,
  { termName, label, type }: { termName: string; label: string; type: TermType },
  r: Row & { _row: string },
  allowed: Map<string, string[]>,
  mapping: Map<string, string>,
  problems: string[],
): Omit<FieldDefinition, 'mandatory'> {
  let regex = r.term_regex?.trim() || undefined;
  if (regex && DROPPED_PATTERNS.some((d) => d.component === component && d.term === termName && d.pattern === regex)) {
    regex = undefined;
  }
  if (regex) {
    try {
      compilePattern(regex);
    } catch (err) {
      problems.push(`Invalid term_regex for '${termName}' at row ${r._row}: ${(err as Error).message}`);
    }
  }
  let mappingKey = r.copo_name?.trim() || undefined;
  if (mappingKey) mappingKey = MAPPING_KEY_FIXES[mappingKey] ?? mappingKey;
  if (mappingKey && !MAPPING_KEY.test(mappingKey)) mappingKey = undefined;
  const referenced = r.referenced_component?.trim() || undefined;
  const values = type === 'enum' ? allowed.get(termName) : undefined;
  if (type === 'enum' && !values?.length) problems.push(`Enum term '${termName}' at row ${r._row} has no allowed values`);
  const cardinality = r.term_cardinality?.toLowerCase() === 'multiple' ? 'multiple' : 'single';
  const field: Omit<FieldDefinition, 'mandatory'> = {
    termName,
    label,
    description: r.term_description ?? '',
    example: r.term_example ?? '',
    type,
    cardinality,
    namespacePrefix: r.namespace_prefix ?? '',
    ...(values && { allowedValues: values }),
    ...(regex && { regex }),
    ...(regex && r.term_error_message && { errorMessage: r.term_error_message }),
    identifier: truthy(r.identifier ?? ''),
    ...(r.identifier_prefix && { identifierPrefix: r.identifier_prefix }),
    // REMBI's specimen_id names its own component: a self-reference carries no constraint
    ...(referenced && referenced !== component && { referencedComponent: referenced }),
    ...(r.term_reference && { reference: r.term_reference }),
    ...(mappingKey && { mappingKey, enaName: mapping.get(mappingKey) ?? mappingKey }),
  };
  return { ...field, example: correctedExample(source, component, field) };
}

/**
 * `allowed_values`: one column per enum term, header = term_name, values downward. A term headed twice (the reads
 * workbook's sequencing_platform_name, once filled and once empty) takes the values of both columns.
 */
function allowedValues(rows: string[][]): Map<string, string[]> {
  const [header = [], ...body] = rows;
  const out = new Map<string, string[]>();
  header.forEach((term, j) => {
    if (!term) return;
    const values = body.map((r) => r[j] ?? '').filter((v) => v !== '');
    out.set(term, [...new Set([...(out.get(term) ?? []), ...values])]);
  });
  return out;
}

function repositoriesOf(comp: Row): Partial<Record<Repository, string>> {
  const out: Partial<Record<Repository, string>> = {};
  for (const repo of REPOSITORIES) {
    const target = comp[`repository_${repo}`];
    if (target) out[repo] = target;
  }
  return out;
}

function checkChecklist(id: string, components: ComponentDefinition[], problems: string[]) {
  const identified = new Set(components.filter((c) => c.fields.some((f) => f.identifier)).map((c) => c.key));
  for (const comp of components) {
    for (const attr of ['termName', 'label'] as const) {
      const seen = new Set<string>();
      for (const f of comp.fields) {
        if (seen.has(f[attr])) {
          const col = attr === 'termName' ? 'term_name' : 'term_label';
          problems.push(`Duplicate ${col}: "${f[attr]}" within a component: "${comp.key}"  with same version: ${id}`);
        }
        seen.add(f[attr]);
      }
    }
    if (comp.fields.filter((f) => f.identifier).length > 1) {
      problems.push(`Component "${comp.key}" has more than one identifier in ${id}`);
    }
    for (const f of comp.fields) {
      if (f.referencedComponent && !identified.has(f.referencedComponent)) {
        problems.push(`Referenced component: '${f.referencedComponent}' is missing (${comp.key}.${f.termName} in ${id})`);
      }
    }
  }
}
