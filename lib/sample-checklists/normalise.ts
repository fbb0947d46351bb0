import type { ChecklistField, SampleChecklist } from './contract';

/**
 * A checklist as the service uses it, from the document it came in: COPO's field of the sample's alias (`sample`) is
 * marked as the sheet's alias column; COPO_DWC's two `lat_lon` fields (Decimal Latitude and Decimal Longitude, one
 * NAME for two values) become the latitude and longitude of the ENA checklist it maps to (ERC000011), in decimal
 * degrees; a field named twice is kept once, as first given.
 */

const COPO_FIELDS: Record<string, Record<string, Partial<ChecklistField>>> = {
  COPO_DWC: {
    'Decimal Latitude': { name: 'geographic location (latitude)', units: ['DD'] },
    'Decimal Longitude': { name: 'geographic location (longitude)', units: ['DD'] },
  },
};

export function normaliseChecklist(checklist: SampleChecklist): SampleChecklist {
  const corrections = checklist.source === 'copo' ? (COPO_FIELDS[checklist.id] ?? {}) : {};
  const seen = new Set<string>();
  const fields: ChecklistField[] = [];
  for (const given of checklist.fields) {
    const field: ChecklistField = { ...given, ...corrections[given.label] };
    if (checklist.source === 'copo' && field.name === 'sample' && !field.role) field.role = 'alias';
    const key = field.name.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push(field);
  }
  return { ...checklist, fields };
}
