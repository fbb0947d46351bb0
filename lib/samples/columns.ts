import { randomBytes } from 'node:crypto';
import { samples, type TolProject, type UpdateType } from '@/db/schema';
import type { SampleLabels } from './contract';

// ids are cut from a pool of random bytes, as node's randomUUID does: one request to the system's generator for each
// id was a measurable part of confirming a big manifest (docs/benchmarks.md, "Big sheets")
const ID_BYTES = 12;
let pool = Buffer.alloc(0);
let taken = 0;

/** svc_id: 24 lower-case hex, the reference system's ObjectId shape */
export function newSampleId(): string {
  if (taken + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * 512);
    taken = 0;
  }
  taken += ID_BYTES;
  return pool.toString('hex', taken - ID_BYTES, taken);
}

const orNull = (v: string | undefined) => (v === undefined || v === '' ? null : v);

/** The columns that say which sample a row is, where it came from and where it stands: what every step names it by. */
export const sampleIdentityColumns = {
  id: samples.id,
  profileId: samples.profileId,
  manifestId: samples.manifestId,
  project: samples.project,
  status: samples.status,
  specimenId: samples.specimenId,
};

/** What a sample_updates row says of the sample it is about, and whether a user or the service changed it. */
export const changeOf = (sample: { id: string; manifestId: string; project: TolProject }, updateType: UpdateType) => ({
  sampleId: sample.id,
  manifestId: sample.manifestId,
  project: sample.project,
  updateType,
});

/** The manifest fields typedColumns reads: all of a row it needs to make the row's typed columns. */
export const TYPED_COLUMN_FIELDS = [
  'SPECIMEN_ID',
  'RACK_OR_PLATE_ID',
  'TUBE_OR_WELL_ID',
  'TAXON_ID',
  'SCIENTIFIC_NAME',
  'SYMBIONT',
] as const;

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

/** The typed columns that copy a sample's labels: select them with the rest of a row, then read them with sampleLabels. */
export const LABEL_COLUMNS = {
  specimenId: samples.specimenId,
  rackOrPlateId: samples.rackOrPlateId,
  tubeOrWellId: samples.tubeOrWellId,
  taxonId: samples.taxonId,
  scientificName: samples.scientificName,
};

/** A sample's labels in the API's names. */
export const sampleLabels = (r: { [K in keyof typeof LABEL_COLUMNS]: string | null }): SampleLabels => ({
  SPECIMEN_ID: r.specimenId ?? '',
  RACK_OR_PLATE_ID: r.rackOrPlateId ?? '',
  TUBE_OR_WELL_ID: r.tubeOrWellId ?? '',
  TAXON_ID: r.taxonId ?? '',
  SCIENTIFIC_NAME: r.scientificName ?? '',
});
