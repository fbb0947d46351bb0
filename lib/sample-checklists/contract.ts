import { z } from 'zod';
import { CHECKLIST_SOURCES, ChecklistFieldSchema, ChecklistKindSchema } from '../repositories/contract';

/**
 * ENA's checklists at the boundary: the sample checklists a researcher registers samples against (ERC000011, the MIxS
 * and other ENA checklists, COPO's Darwin Core and FAANG ones) and the sequence checklists of tagged sequences
 * (ERT000020 COI barcodes, ERT000002 rRNA), as ENA publishes them in its CHECKLIST_SET XML (ENA.checklist.xsd), kept in
 * the `sample_checklists` table (its `fields` column) and answered by `GET /api/sample/checklists`.
 */

// a checklist as ENA's CHECKLIST_SET XML describes it is the repositories' (lib/repositories/contract.ts), which parse
// it; the domain, the sample_checklists table and the sheets name it from here
export {
  CHECKLIST_KINDS,
  type ChecklistField,
  type ChecklistKind,
  type ChecklistSource,
  type SampleChecklist,
} from '../repositories/contract';

export const ChecklistIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'A checklist id is letters, digits, _, . and -: ERC000011 or COPO_DWC.')
  .meta({ example: 'ERC000011' });

export const ChecklistParamsSchema = z.object({ checklist_id: ChecklistIdSchema });

export const ChecklistListQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'a part of the checklist’s id, name or description, any case', example: 'soil' }),
  kind: ChecklistKindSchema.default('sample').meta({ description: 'sample checklists (default), or sequence checklists' }),
});

export const ChecklistSummarySchema = z
  .object({
    checklist_id: z.string().meta({ example: 'ERC000011' }),
    name: z.string().meta({ example: 'ENA default sample checklist' }),
    description: z.string(),
    field_count: z.number().int(),
    mandatory_count: z.number().int(),
    source: z.enum(CHECKLIST_SOURCES),
    ena_checklist_id: z.string().meta({ description: 'the ENA checklist the samples are registered under', example: 'ERC000011' }),
    refreshed: z.iso.datetime().meta({ description: 'when this copy was read' }),
  })
  .meta({ id: 'SampleChecklistSummary' });
export type ChecklistSummary = z.infer<typeof ChecklistSummarySchema>;

export const ChecklistListSchema = z
  .object({ number_found: z.number().int(), data: z.array(ChecklistSummarySchema) })
  .meta({ id: 'SampleChecklistList' });

export const ChecklistDetailSchema = ChecklistSummarySchema.extend({
  label: z.string(),
  authority: z.string(),
  fields: z.array(ChecklistFieldSchema),
}).meta({ id: 'SampleChecklist' });
export type ChecklistDetail = z.infer<typeof ChecklistDetailSchema>;
