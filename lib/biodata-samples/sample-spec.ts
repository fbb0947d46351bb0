import type { biodataSamples } from '@/db/schema';
import type { SampleSpec } from '@/lib/repositories/ena';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { unitColumn } from './contract';

type Sample = typeof biodataSamples.$inferSelect;

/** The SAMPLE of a biodata sample: its checklist's fields, in the checklist's order, as attributes. */
export function biodataSampleSpec(sample: Sample, checklist: SampleChecklist): SampleSpec {
  const attributes: SampleSpec['attributes'] = [{ tag: 'ENA-CHECKLIST', value: checklist.enaChecklistId }];
  for (const f of checklist.fields) {
    if (f.role) continue;
    const value = sample.fields[f.name]?.trim();
    if (!value) continue;
    const units = f.units?.length ? sample.fields[unitColumn(f.name)] : undefined;
    attributes.push({ tag: f.name, value, ...(units && { units }) });
  }
  return { alias: sample.id, title: sample.alias, taxonId: sample.taxonId, scientificName: sample.scientificName, attributes };
}
