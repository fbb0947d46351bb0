import { z } from 'zod';
import { IssueSeveritySchema } from '../contract';
import catalogue from './catalogue.json' with { type: 'json' };

/**
 * Every rule code a validation report can carry: its severity, its title (the report page's one-line name for what
 * the rule found) and what it means. Codes are stable: clients and stored reports depend on them. The rules and the
 * report page read this one list (data in catalogue.json, in the order the checks run: sheet, cells, rack and tube,
 * specimens, ERGA, taxonomy, updates); Reporter only accepts its codes, so it cannot drift from the rules.
 */
export type RuleCode = keyof typeof catalogue;

const RuleSchema = z.strictObject({ severity: IssueSeveritySchema, title: z.string().min(1), description: z.string().min(1) });

// checked as the module loads: a misspelt severity or a missing title fails every test and the build, not a report
export const RULES = z.record(z.enum(Object.keys(catalogue) as [RuleCode, ...RuleCode[]]), RuleSchema).parse(catalogue);
