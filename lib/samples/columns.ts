import { randomBytes } from 'node:crypto';

/** svc_id: 24 lower-case hex, the reference system's ObjectId shape */
export const newSampleId = () => randomBytes(12).toString('hex');

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

/** The typed, indexed copies of the manifest fields the query API filters on; always derived from `fields`. */
export function typedColumns(fields: Record<string, string>) {
  return {
    specimenId: orNull(fields.SPECIMEN_ID),
    // ERGA has no rack column: '' keeps (rack, tube) comparable across projects
    rackOrPlateId: fields.RACK_OR_PLATE_ID ?? '',
    tubeOrWellId: orNull(fields.TUBE_OR_WELL_ID),
    taxonId: orNull(fields.TAXON_ID),
    scientificName: orNull(fields.SCIENTIFIC_NAME),
    symbiont: fields.SYMBIONT || 'TARGET',
  };
}
