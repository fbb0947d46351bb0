import { columnLetter, headerKey } from '../columns';
import { messages } from '../messages';
import type { Issue, ManifestDefinition, ParsedManifest } from '../types';
import type { RuleCode } from './catalogue';

export interface ColumnMap {
  /** sheet header → field name, for the headers that name a field */
  fieldOfHeader: Map<string, string>;
  /** field name → column letter in the uploaded sheet */
  columnOfField: Map<string, string>;
  /** header → column letter */
  columnOfHeader: Map<string, string>;
  errors: Issue[];
  warnings: Issue[];
}

/** Matches sheet headers to fields; reports required columns that are absent and headers that are no field. */
export function mapColumns(parsed: ParsedManifest, definition: ManifestDefinition, optionalColumns: ReadonlySet<string>): ColumnMap {
  const byName = new Map(definition.fields.map((f) => [f.name, f]));
  const byKey = new Map(definition.fields.map((f) => [headerKey(f.name), f.name]));
  const map: ColumnMap = {
    fieldOfHeader: new Map(),
    columnOfField: new Map(),
    columnOfHeader: new Map(),
    errors: [],
    warnings: [],
  };
  const headersOfField = new Map<string, string[]>();
  parsed.headers.forEach((header, i) => {
    const column = parsed.columns?.[i] ?? columnLetter(i + 1);
    map.columnOfHeader.set(header, column);
    const field = byName.has(header) ? header : byKey.get(headerKey(header));
    const issue = (rule: RuleCode, message: string): Issue => ({ row: null, column, field: field ?? null, value: header, rule, message });
    if (!field) {
      map.warnings.push(issue('unknown_column', messages.unknownColumn(header, `${definition.manifestType} ${definition.version}`)));
      return;
    }
    const seen = headersOfField.get(field);
    if (seen) {
      seen.push(header);
      map.errors.push(issue('duplicate_column', messages.duplicateColumn(field, seen)));
      return;
    }
    headersOfField.set(field, [header]);
    map.fieldOfHeader.set(header, field);
    map.columnOfField.set(field, column);
    if (field !== header) map.warnings.push(issue('header', messages.headerNormalised(header, field)));
  });
  for (const f of definition.fields) {
    if (f.required && !headersOfField.has(f.name) && !optionalColumns.has(f.name)) {
      map.errors.push({
        row: null,
        column: null,
        field: f.name,
        value: null,
        rule: 'missing_column',
        message: messages.fieldNotFound(f.name),
      });
    }
  }
  return map;
}
