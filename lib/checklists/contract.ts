import { z } from 'zod';
import { SCHEMA_NAMES } from './labels';

/**
 * The study schemas and their checklists: the schema names, the repositories a component goes to, the definitions
 * kept in the `checklists.fields` column (one checklist's components with their terms), and the public pages made
 * from them (the checklist listing and the term and component pages the JSON-LD IRIs resolve to).
 */

export { SCHEMA_NAMES } from './labels';

export const SchemaNameSchema = z.enum(SCHEMA_NAMES).meta({ description: 'a study schema', example: 'svc_single_cell' });
export type SchemaName = z.infer<typeof SchemaNameSchema>;

/**
 * A schema named in a path: any case, so not an enumeration; an unknown one is the 404 `Unknown schema …` naming
 * the known ones, as the reference answers.
 */
export const SchemaNameParamSchema = z.string().meta({ description: `${SCHEMA_NAMES.join(', ')} (any case)`, example: 'svc_single_cell' });

/** The term types of the schema workbooks' `data` sheet. */
export const TERM_TYPES = ['string', 'enum', 'file', 'ontology', 'BIOSAMPLEACCESSION_FIELD', 'BIOSAMPLEACCESSION_EXT_FIELD'] as const;
const TermTypeSchema = z.enum(TERM_TYPES);
export type TermType = z.infer<typeof TermTypeSchema>;

const CardinalitySchema = z.enum(['single', 'multiple']);

/** Per repository, the object it receives for a component, e.g. {ena: 'study', zenodo: 'study'}. */
const ComponentRepositoriesSchema = z
  .object({ ena: z.string().optional(), zenodo: z.string().optional() })
  .meta({ description: 'per repository, the object it receives for the component', example: { ena: 'study', zenodo: 'study' } });

/** One term of a checklist, as the schema workbook defines it (docs/studies-and-checklists.md §2). */
const FieldDefinitionSchema = z.object({
  /** machine key, and the key under which values are stored */
  termName: z.string(),
  /** the spreadsheet column header */
  label: z.string(),
  description: z.string(),
  example: z.string(),
  type: TermTypeSchema,
  /** `M` in the checklist column; `O` is optional */
  mandatory: z.boolean(),
  cardinality: CardinalitySchema,
  namespacePrefix: z.string(),
  /** enum terms: the values from the `allowed_values` sheet, as text */
  allowedValues: z.array(z.string()).optional(),
  /** string terms: the pattern, applied anchored at the start only (Python `re.match`) */
  regex: z.string().optional(),
  errorMessage: z.string().optional(),
  /** the row identifier of its component (unique within the sheet) */
  identifier: z.boolean(),
  /** prefix for identifiers generated in templates, e.g. LIBPREP */
  identifierPrefix: z.string().optional(),
  /** the value must be one of the identifiers of that component */
  referencedComponent: z.string().optional(),
  /** term_reference: an IRI, or for ontology terms the ancestor CURIE (e.g. CL:0000000) */
  reference: z.string().optional(),
  /** copo_name: key of the term mapping used when building ENA XML */
  mappingKey: z.string().optional(),
  /** the ENA attribute name that mappingKey maps to */
  enaName: z.string().optional(),
});
export type FieldDefinition = z.infer<typeof FieldDefinitionSchema>;

/** One sheet of a study spreadsheet. */
const ComponentDefinitionSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** `component_required` of the REMBI workbook; informational, never enforced */
  required: z.boolean(),
  repositories: ComponentRepositoriesSchema,
  fields: z.array(FieldDefinitionSchema),
});
export type ComponentDefinition = z.infer<typeof ComponentDefinitionSchema>;

/** What the `fields` column of a checklist row holds: the checklist's components in schema order with their terms. */
export const ChecklistFieldsSchema = z.array(ComponentDefinitionSchema);
export type ChecklistFields = z.infer<typeof ChecklistFieldsSchema>;

// ---- answers ----

/** One checklist of a schema, as the listing answers it (empty cells as ""). */
export const ChecklistSchema = z
  .object({
    checklist_id: z.string().meta({ example: 'version_dwc_sc_rnaseq' }),
    name: z.string().meta({ example: 'Darwin Core metadata' }),
    description: z.string(),
    standard: z.string().meta({ example: 'dwc' }),
    technology: z.string().meta({ example: 'sc_rnaseq' }),
  })
  .meta({ id: 'Checklist', description: 'a checklist of a study schema' });
export type Checklist = z.infer<typeof ChecklistSchema>;

export const ChecklistsParamsSchema = z.object({ schema_name: SchemaNameParamSchema });

export const TermPageParamsSchema = z.object({
  schema_name: SchemaNameParamSchema,
  term_name: z.string().meta({ example: 'study_id' }),
});

export const ComponentPageParamsSchema = z.object({
  schema_name: SchemaNameParamSchema,
  component: z.string().meta({ example: 'lib_prep' }),
});

const TermDefinitionSchema = z
  .object({
    component: z.string().meta({ example: 'study' }),
    label: z.string(),
    description: z.string(),
    example: z.string(),
    type: TermTypeSchema,
    cardinality: CardinalitySchema,
    identifier: z.boolean(),
    allowed_values: z.array(z.string()).optional(),
    pattern: z.string().optional().meta({ description: 'anchored at the start only, as Python’s re.match' }),
    error_message: z.string().optional().meta({ description: 'with pattern: what a value that does not match is told' }),
    referenced_component: z.string().optional(),
    ontology_root: z.string().optional().meta({ description: 'ontology terms: the ancestor CURIE of their values', example: 'CL:0000000' }),
    reference: z.string().optional().meta({ description: 'the term’s external IRI' }),
    checklists: z
      .record(z.string(), z.enum(['mandatory', 'optional']))
      .meta({ description: 'checklist_id → whether the checklist requires the term', example: { version_dwc_sc_rnaseq: 'mandatory' } }),
  })
  .meta({ id: 'TermDefinition', description: 'a term as one component of the schema defines it' });

export const TermPageSchema = z
  .object({
    schema_name: SchemaNameSchema,
    term_name: z.string(),
    definitions: z.array(TermDefinitionSchema),
  })
  .meta({ id: 'TermPage', description: 'every definition of a term in a schema, per component' });
export type TermPage = z.infer<typeof TermPageSchema>;

export const ComponentPageSchema = z
  .object({
    schema_name: SchemaNameSchema,
    component: z.string().meta({ example: 'lib_prep' }),
    name: z.string(),
    description: z.string(),
    repositories: ComponentRepositoriesSchema,
    checklists: z
      .record(z.string(), z.array(z.string()))
      .meta({ description: 'checklist_id → the component’s term names in that checklist, in order' }),
  })
  .meta({ id: 'ComponentPage', description: 'a component (sheet) of a schema' });
export type ComponentPage = z.infer<typeof ComponentPageSchema>;

/** The sheets of a schema workbook as trimmed text rows (header first); see docs/studies-and-checklists.md §2. */
export type WorkbookSheets = Record<string, string[][]>;
