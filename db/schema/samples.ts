import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { PATTERNS } from '../../lib/identifiers/contract';
import type { TaxonRecord } from '../../lib/manifests/contract';
import {
  type EnaSampleRecord,
  SAMPLE_STATUSES,
  type SampleApprovals,
  type SampleFields,
  type SampleStatus,
  type TolidStatus,
} from '../../lib/samples/contract';
import { fieldChangeColumns } from './field-changes';
import { manifests } from './manifests';
import { profiles } from './profiles';
import { type TolProject, users } from './users';

// the tables and the API share one list of sample states (lib/samples/contract.ts)
export { SAMPLE_STATUSES, type SampleStatus };

/**
 * A Tree of Life sample record: every manifest field in `fields`, and typed, indexed copies of the fields the query
 * API filters on. The typed columns are written by the same code that writes `fields`, never separately.
 */
export const samples = pgTable(
  'samples',
  {
    /** svc_id: 24 lower-case hex; also the sample's alias at ENA */
    id: text('id').primaryKey(),
    manifestId: uuid('manifest_id')
      .notNull()
      .references(() => manifests.id),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id),
    /** sample_type: asg, dtol, dtolenv, erga */
    project: text('project').$type<TolProject>().notNull(),
    manifestVersion: text('manifest_version').notNull(),
    status: text('status').$type<SampleStatus>().notNull().default('pending'),
    /** every manifest field of the row, by its manifest name */
    fields: jsonb('fields').$type<SampleFields>().notNull(),
    specimenId: text('specimen_id'),
    rackOrPlateId: text('rack_or_plate_id'),
    tubeOrWellId: text('tube_or_well_id'),
    taxonId: text('taxon_id'),
    scientificName: text('scientific_name'),
    /** TARGET or SYMBIONT */
    symbiont: text('symbiont'),
    publicName: text('public_name'),
    biosampleAccession: text('biosample_accession'),
    sraAccession: text('sra_accession'),
    submissionAccession: text('submission_accession'),
    sampleDerivedFrom: text('sample_derived_from'),
    sampleSameAs: text('sample_same_as'),
    sampleSymbiontOf: text('sample_symbiont_of'),
    /** profile's sequencing centres and associated project types when the sample was last written */
    sequencingCentres: text('sequencing_centres').array().notNull().default(sql`'{}'::text[]`),
    associatedTolProjects: text('associated_tol_projects').array().notNull().default(sql`'{}'::text[]`),
    /** approvals per associated type: {"DTOL": {"user_id": 3, "date": "…"}} */
    approvals: jsonb('approvals').$type<SampleApprovals>().notNull().default(sql`'{}'::jsonb`),
    /** rejection reason: never leaves the service */
    rejectionReason: text('rejection_reason'),
    /** why an approved sample is not registered yet, in words, for its owner and managers (not the public API) */
    statusDetail: text('status_detail'),
    /** when a waiting sample (awaiting_tolid, or processing after an outage) is next tried */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** a `private` sample's traditional-knowledge project was last looked up at the Local Contexts Hub */
    rightsCheckedAt: timestamp('rights_checked_at', { withTimezone: true }),
    /** the Local Contexts Hub answered that the sample's traditional-knowledge project is public */
    rightsClearedAt: timestamp('rights_cleared_at', { withTimezone: true }),
    lastBioimageSubmitted: timestamp('last_bioimage_submitted', { withTimezone: true }),
    createdBy: integer('created_by').references(() => users.id),
    timeCreated: timestamp('time_created', { withTimezone: true }).notNull().defaultNow(),
    timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('samples_id_shape', sql`${t.id} ~ ${sql.raw(`'^${PATTERNS.objectId}$'`)}`),
    index('samples_manifest_idx').on(t.manifestId),
    index('samples_profile_idx').on(t.profileId),
    index('samples_project_created_idx').on(t.project, t.timeCreated),
    // (time, id): the keyset order of date-range queries, newest first
    index('samples_created_idx').on(t.timeCreated, t.id),
    index('samples_status_idx').on(t.status, t.project),
    // the registration sweep: waiting samples that are due
    index('samples_waiting_idx').on(t.status, t.nextAttemptAt).where(sql`${t.status} in ('processing', 'awaiting_ena', 'awaiting_tolid')`),
    // (column, id) pairs: equality filters and the browser's keyset sorts walk the same index
    index('samples_taxon_idx').on(t.taxonId, t.id),
    index('samples_scientific_name_idx').on(t.scientificName, t.id),
    index('samples_project_id_idx').on(t.project, t.id),
    index('samples_specimen_idx').on(t.specimenId),
    index('samples_rack_tube_idx').on(t.rackOrPlateId, t.tubeOrWellId),
    index('samples_tube_idx').on(t.tubeOrWellId, t.id),
    index('samples_biosample_idx').on(t.biosampleAccession),
    index('samples_sra_idx').on(t.sraAccession),
    index('samples_public_name_idx').on(t.publicName),
    index('samples_centres_idx').using('gin', t.sequencingCentres),
    index('samples_associated_idx').using('gin', t.associatedTolProjects),
    // sample/sequencing_centre and manifest/sequencing_centre match the centre's label on GAL
    index('samples_gal_idx').on(sql`upper((${t.fields} ->> 'GAL'))`),
    index('samples_bioimage_idx').on(t.lastBioimageSubmitted, t.id).where(sql`${t.lastBioimageSubmitted} is not null`),
    // sample/sample_field: case-insensitive substring search (ILIKE '%v%') on the typed columns
    index('samples_specimen_trgm_idx').using('gin', t.specimenId.op('gin_trgm_ops')),
    index('samples_scientific_name_trgm_idx').using('gin', t.scientificName.op('gin_trgm_ops')),
    index('samples_public_name_trgm_idx').using('gin', t.publicName.op('gin_trgm_ops')),
    index('samples_tube_trgm_idx').using('gin', t.tubeOrWellId.op('gin_trgm_ops')),
    index('samples_rack_trgm_idx').using('gin', t.rackOrPlateId.op('gin_trgm_ops')),
    index('samples_taxon_trgm_idx').using('gin', t.taxonId.op('gin_trgm_ops')),
    index('samples_biosample_trgm_idx').using('gin', t.biosampleAccession.op('gin_trgm_ops')),
    index('samples_sra_trgm_idx').using('gin', t.sraAccession.op('gin_trgm_ops')),
  ],
);

export { UPDATE_TYPES, type UpdateType } from '../../lib/query/contract';

/** The audit trail: one row per changed field of a sample, written in the transaction that changed it. */
export const sampleUpdates = pgTable(
  'sample_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sampleId: text('sample_id')
      .notNull()
      .references(() => samples.id),
    manifestId: uuid('manifest_id').notNull(),
    project: text('project').$type<TolProject>().notNull(),
    ...fieldChangeColumns(),
  },
  (t) => [
    check('sample_updates_type', sql`${t.updateType} in ('system', 'user')`),
    index('sample_updates_sample_idx').on(t.sampleId, t.timeUpdated),
    // (manifest, time, id): a manifest's changes in the audit's keyset order, newest first, found and ordered by the
    // index alone. On (manifest) only, a prepared statement's generic plan (LIMIT unknown) walked the time index
    // backwards through every change to find a manifest's 25
    index('sample_updates_manifest_idx').on(t.manifestId, t.timeUpdated, t.id),
    // (time, id): the keyset order of the audit queries, newest first
    index('sample_updates_time_idx').on(t.timeUpdated, t.id),
    index('sample_updates_type_idx').on(t.updateType, t.project, t.timeUpdated),
    index('sample_updates_field_idx').on(t.field, t.project),
  ],
);

/**
 * A specimen (source) registered at ENA once per SPECIMEN_ID and project; the samples taken from it point at its
 * accession (sampleDerivedFrom / sampleSameAs / sampleSymbiontOf).
 */
export const specimens = pgTable(
  'specimens',
  {
    id: text('id').primaryKey(),
    project: text('project').$type<TolProject>().notNull(),
    specimenId: text('specimen_id').notNull(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id),
    taxonId: text('taxon_id'),
    fields: jsonb('fields').$type<SampleFields>().notNull().default(sql`'{}'::jsonb`),
    publicName: text('public_name'),
    /** the last answer of the ToLID service: approved (publicName holds the ToLID), pending or rejected */
    tolidStatus: text('tolid_status').$type<TolidStatus>(),
    tolidReason: text('tolid_reason'),
    tolidAskedAt: timestamp('tolid_asked_at', { withTimezone: true }),
    biosampleAccession: text('biosample_accession'),
    sraAccession: text('sra_accession'),
    submissionAccession: text('submission_accession'),
    timeCreated: timestamp('time_created', { withTimezone: true }).notNull().defaultNow(),
    timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('specimens_project_specimen_key').on(t.project, t.specimenId)],
);

/** ENA taxonomy answers, so validation asks ENA once per taxon. */
export const taxonomyCache = pgTable('taxonomy_cache', {
  /** `tax-id:<id>` or `scientific-name:<lower-case name>` */
  key: text('key').primaryKey(),
  /** the taxa ENA answered: one for a tax-id key, a list for a name; [] when ENA knows nothing */
  response: jsonb('response').$type<TaxonRecord | TaxonRecord[]>().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Ontology Lookup Service's answers about study terms (lib/repositories/ols.ts), so a term is asked once per TTL
 * whichever instance validates the sheet: the term found under the ancestor, or null when the ontology has none.
 */
export const ontologyTermCache = pgTable('ontology_term_cache', {
  /** `<ancestor CURIE>|<the value, trimmed and lower-cased>` */
  key: text('key').primaryKey(),
  term: jsonb('term').$type<{ iri: string; label: string; curie: string } | null>(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});

/** ENA's answers about BioSamples that study sheets reference (a sample record, or null when ENA knows none). */
export const enaSampleCache = pgTable('ena_sample_cache', {
  /** the accession as referenced: SAMEA…/SAMN…/SAMD… or ERS… */
  accession: text('accession').primaryKey(),
  record: jsonb('record').$type<EnaSampleRecord | null>(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});
