import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { IMAGE_FORMATS, IMAGE_STATES, type ImageFormat, type ImageState } from '../../lib/images/contract';
import { manifests } from './manifests';
import { profiles } from './profiles';
import { type TolProject, users } from './users';

const inList = (values: readonly string[]) => sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`);

/**
 * An image of a specimen (project and SPECIMEN_ID, as the specimens table keys them), uploaded beside one of its
 * manifests; its bytes and thumbnail are in the profile's file storage. `sequence` and `bioimage_name` are chosen
 * before the transfer to the BioImage Archive, so a run that died part-way sends the same file under the same name.
 */
export const specimenImages = pgTable(
  'specimen_images',
  {
    id: uuid('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    manifestId: uuid('manifest_id')
      .notNull()
      .references(() => manifests.id, { onDelete: 'cascade' }),
    project: text('project').$type<TolProject>().notNull(),
    specimenId: text('specimen_id').notNull(),
    fileName: text('file_name').notNull(),
    format: text('format').$type<ImageFormat>().notNull(),
    sizeInBytes: bigint('size_in_bytes', { mode: 'number' }).notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** names in the profile's file storage */
    storedName: text('stored_name').notNull(),
    thumbnailName: text('thumbnail_name').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    state: text('state').$type<ImageState>().notNull().default('waiting'),
    /** n of `{biosampleAccession}_{n}.{ext}`: the specimen's images in the order they were sent */
    sequence: integer('sequence'),
    bioimageName: text('bioimage_name'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    failure: text('failure'),
  },
  (t) => [
    check('specimen_images_state', sql`${t.state} in ${inList(IMAGE_STATES)}`),
    check('specimen_images_format', sql`${t.format} in ${inList(IMAGE_FORMATS)}`),
    check('specimen_images_named', sql`(${t.sequence} is null) = (${t.bioimageName} is null)`),
    uniqueIndex('specimen_images_sequence_key').on(t.project, t.specimenId, t.sequence),
    // an image sent again under the name of one not yet sent replaces it
    uniqueIndex('specimen_images_unsent_name_key')
      .on(t.project, t.specimenId, sql`lower(${t.fileName})`)
      .where(sql`${t.bioimageName} is null`),
    index('specimen_images_manifest_idx').on(t.manifestId),
    index('specimen_images_open_idx').on(t.project, t.specimenId).where(sql`${t.state} in ('waiting', 'held', 'sending')`),
  ],
);
