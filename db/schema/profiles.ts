import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { PATTERNS } from '../../lib/identifiers/contract';
import { PROFILE_TYPES, type ProfileType, sqlList } from '../../lib/projects/contract';
import { users } from './users';

export { PROFILE_TYPES, type ProfileType } from '../../lib/projects/contract';

export const profiles = pgTable(
  'profiles',
  {
    /** 24 lower-case hex characters, the reference system's id shape */
    id: text('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** fixed at creation */
    type: text('type').$type<ProfileType>().notNull(),
    /** sub-project names (the associated_types table), e.g. {BGE,SANGER} */
    associatedTypes: text('associated_types').array().notNull().default(sql`'{}'::text[]`),
    /** sequencing centre short names, e.g. {EI} */
    sequencingCentres: text('sequencing_centres').array().notNull().default(sql`'{}'::text[]`),
    /** ENA locus-tag prefixes, registered on the profile's studies' projects (annotated genomes name their genes by them) */
    enaLocusTags: text('ena_locus_tags').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('profiles_owner_title_key').on(t.ownerId, t.title),
    check('profiles_id_shape', sql`${t.id} ~ ${sql.raw(`'^${PATTERNS.objectId}$'`)}`),
    check('profiles_type', sql`${t.type} in (${sql.raw(sqlList(PROFILE_TYPES))})`),
    index('profiles_owner_updated_idx').on(t.ownerId, t.updatedAt),
    index('profiles_type_idx').on(t.type),
  ],
);

/** Data files uploaded to a profile through the service's own signed URLs (local storage; S3 lists its bucket). */
export const profileFiles = pgTable(
  'profile_files',
  {
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    sizeInBytes: bigint('size_in_bytes', { mode: 'number' }).notNull(),
    /** MD5 of the content, hex: what S3 reports as the ETag of a single-part upload */
    etag: text('etag').notNull(),
    lastUploaded: timestamp('last_uploaded', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.profileId, t.fileName] })],
);
