import type { EventLoopTurns } from '@/lib/concurrency';
import { QUOTED_VALUE_MAX_CHARS, quotedValue } from '@/lib/values/cell-bound';
import { messages } from '../messages';
import type { FieldDefinition, Issue, ManifestDefinition, ValidationContext } from '../types';
import { patternSubject, vocabularyKey } from '../values';
import type { RuleCode } from './catalogue';

/** One data row while rules run: cleaned values by field name (NA spellings already blank) and the cell text as read. */
export interface WorkRow {
  rowNumber: number;
  values: Record<string, string>;
  raw: Record<string, string>;
}

/** A field with its checks precompiled once per definition: a RegExp, a Set, a Map of normalised spellings. */
export interface CompiledField {
  def: FieldDefinition;
  regex: RegExp | null;
  allowed: ReadonlySet<string> | null;
  /** vocabularyKey(value) → canonical value, for fields that accept case/format variants */
  canonicalByKey: ReadonlyMap<string, string> | null;
  /** tokens this field accepts as values */
  tokens: ReadonlySet<string>;
}

export interface IssueInput {
  row: number | null;
  field: string | null;
  value?: string | null;
  message: string;
  /** a header not tied to a field (unknown columns) */
  header?: string;
}

/**
 * Issues listed per severity in a report; those found beyond are counted, not kept. A sheet of 10,000 rows with
 * every cell wrong would otherwise hold hundreds of thousands of them, each stored and sent.
 */
export const MAX_LISTED_ISSUES = 10_000;

/**
 * Collects issues, filling in the spreadsheet column of the field's header. A long value is quoted by its start, in
 * the issue and in its message.
 */
export class Reporter {
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];
  /** issues found beyond MAX_LISTED_ISSUES, by severity */
  readonly unlisted = { errors: 0, warnings: 0 };

  constructor(
    private readonly columnOfField: ReadonlyMap<string, string>,
    private readonly columnOfHeader: ReadonlyMap<string, string>,
  ) {}

  private issue(rule: RuleCode, i: IssueInput): Issue {
    const column = i.header !== undefined ? this.columnOfHeader.get(i.header) : i.field ? this.columnOfField.get(i.field) : undefined;
    let value = i.value ?? null;
    let message = i.message;
    if (value !== null && value.length > QUOTED_VALUE_MAX_CHARS) {
      const quoted = quotedValue(value);
      message = message.split(value).join(quoted);
      value = quoted;
    }
    return { row: i.row, column: column ?? null, field: i.field, value, rule, message };
  }

  error(rule: RuleCode, i: IssueInput): void {
    if (this.errors.length < MAX_LISTED_ISSUES) this.errors.push(this.issue(rule, i));
    else this.unlisted.errors++;
  }

  warn(rule: RuleCode, i: IssueInput): void {
    if (this.warnings.length < MAX_LISTED_ISSUES) this.warnings.push(this.issue(rule, i));
    else this.unlisted.warnings++;
  }

  /** The errors as a report lists them: sheet-level first, then by row. */
  listedErrors(): Issue[] {
    return byRow(this.errors);
  }

  /** The warnings as a report lists them, with one more saying how many issues were found beyond those listed. */
  listedWarnings(): Issue[] {
    const { errors, warnings } = this.unlisted;
    if (!errors && !warnings) return byRow(this.warnings);
    return byRow([
      ...this.warnings,
      {
        row: null,
        column: null,
        field: null,
        value: null,
        rule: 'issues_not_listed',
        message: messages.issuesNotListed(MAX_LISTED_ISSUES, errors, warnings),
      },
    ]);
  }
}

/** Sheet-level issues first, then by row; within a row the order the rules found them (stable sort). */
function byRow(issues: Issue[]): Issue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => (a.issue.row ?? 0) - (b.issue.row ?? 0) || a.i - b.i)
    .map((x) => x.issue);
}

/** Everything a rule may read; rules mutate `rows[].values` only to apply announced auto-corrections. */
export interface RuleState {
  definition: ManifestDefinition;
  fields: ReadonlyMap<string, CompiledField>;
  /** fields whose column is in the sheet (or that a rule filled in) */
  present: Set<string>;
  rows: WorkRow[];
  report: Reporter;
  ctx: ValidationContext;
  now: Date;
  /** ERGA profile whose only associated type is POP_GENOMICS (docs/tol-manifests.md §1.6) */
  popGenomicsOnly: boolean;
  /** cells that already have an error, `${row}:${field}`, so later rules do not pile on */
  failed: Set<string>;
  /** turns for the event loop between slices of a large sheet's rows */
  turns: EventLoopTurns;
}

export const cellKey = (row: number, field: string): string => `${row}:${field}`;

const compiledCache = new WeakMap<ManifestDefinition, Map<string, CompiledField>>();

/** Precompiled checks of a definition, built once per definition object. */
export function compileDefinition(definition: ManifestDefinition): Map<string, CompiledField> {
  const cached = compiledCache.get(definition);
  if (cached) return cached;
  const out = new Map<string, CompiledField>();
  for (const def of definition.fields) {
    const allowed = def.allowedValues ? new Set(def.allowedValues) : null;
    const canonicalByKey = def.normaliseValues && def.allowedValues ? new Map(def.allowedValues.map((v) => [vocabularyKey(v), v])) : null;
    out.set(def.name, {
      def,
      regex: def.pattern ? new RegExp(def.pattern, 'i') : null,
      allowed,
      canonicalByKey,
      tokens: new Set(def.missingValueTokens),
    });
  }
  compiledCache.set(definition, out);
  return out;
}

/** The reference's regex test: `_` read as space, case ignored. */
export const matchesPattern = (field: CompiledField, value: string): boolean =>
  field.regex === null || field.regex.test(patternSubject(value));
