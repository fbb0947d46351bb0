import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ManifestProject } from '../types';

/**
 * Readers of the reference system's ToL files (copied byte for byte into db/seed/data/tol; MIT, see
 * LICENSE-COPO.txt there). The attribute files are the runtime truth for field lists per version, required,
 * compliance, export and standards; the layout files add colour blocks, regexes and the location list.
 */

/**
 * Where the files are read from: the copy in the repository, so a fresh clone works without the design folder;
 * REFERENCE_DIR (a folder holding `tol/`) points elsewhere, as it does for the checklist workbooks.
 */
export function tolDataDir(env: Record<string, string | undefined> = process.env): string {
  return env.REFERENCE_DIR ? path.resolve(env.REFERENCE_DIR, 'tol') : path.join(process.cwd(), 'db', 'seed', 'data', 'tol');
}

const attributeSchema = z.object({
  id: z.string().startsWith('copo.sample.'),
  label: z.string(),
  excel_col: z.string(),
  required: z.enum(['true', 'false']),
  // absent means "not compliant", i.e. updatable (docs/tol-manifests.md §4.3)
  is_compliant: z.boolean().optional(),
  is_sensitive: z.boolean(),
  show_in_api: z.boolean(),
  manifest_version: z.array(z.string()).min(1),
  option_values: z.array(z.string()).optional(),
  standards: z.object({ tol: z.string(), dwc: z.string(), ena: z.string(), mixs: z.string() }),
});
export type AttributeEntry = z.infer<typeof attributeSchema>;

const layoutSchema = z.array(
  z.object({
    block: z.string(),
    fields: z.array(
      z.object({
        name: z.string(),
        column: z.string(),
        required: z.boolean(),
        regex: z.string().optional(),
        enum: z.array(z.string()).optional(),
        unit: z.string().optional(),
      }),
    ),
  }),
);
export type LayoutField = z.infer<typeof layoutSchema>[number]['fields'][number] & { block: string };

export const ATTRIBUTE_FILES: Record<ManifestProject, string> = {
  asg: 'asg_sample_attributes.json',
  dtol: 'dtol_sample_attributes.json',
  dtolenv: 'dtolenv_sample_attributes.json',
  erga: 'erga_sample_attributes.json',
};

/** Layout files exist for the current DTOL, ASG and ERGA versions only; DTOLENV borrows DTOL's regexes (below). */
export const LAYOUT_FILES: Record<ManifestProject, string | null> = {
  asg: 'asg_manifest_fields_v2.5.json',
  dtol: 'dtol_manifest_fields_v2.5.json',
  dtolenv: null,
  erga: 'erga_manifest_fields_v2.5.1.json',
};

/** The official templates, kept for reference and for the tests that fill them. */
export const TEMPLATE_FILES: Partial<Record<ManifestProject, string>> = {
  asg: 'asg_manifest_template_v2.5.xlsx',
  dtol: 'dtol_manifest_template_v2.5.xlsx',
  erga: 'erga_manifest_template_v2.5.1.xlsx',
};

function readJson(dir: string, file: string): unknown {
  return JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
}

export function readAttributes(dir: string, project: ManifestProject): AttributeEntry[] {
  const parsed = z.array(attributeSchema).safeParse(readJson(dir, ATTRIBUTE_FILES[project]));
  if (!parsed.success) throw new Error(`${ATTRIBUTE_FILES[project]}: ${parsed.error.message}`);
  return parsed.data;
}

/** The layout's fields by name; DTOLENV gets DTOL's, because the runtime regex rules are keyed by field name only. */
export function readLayout(dir: string, project: ManifestProject): Map<string, LayoutField> {
  const file = LAYOUT_FILES[project] ?? LAYOUT_FILES.dtol;
  if (!file) return new Map();
  const parsed = layoutSchema.safeParse(readJson(dir, file));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.message}`);
  const fields = new Map<string, LayoutField>();
  for (const block of parsed.data) for (const f of block.fields) fields.set(f.name, { ...f, block: block.block });
  return fields;
}

export const fieldNameOf = (entry: AttributeEntry): string => entry.id.slice('copo.sample.'.length);
