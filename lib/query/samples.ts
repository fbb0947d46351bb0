import { and, arrayContains, asc, gt, gte, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, TOL_PROJECTS } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { findSequencingCentre, referenceData, type SequencingCentre, subProjects } from '@/lib/reference/read';
import { renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
import { recordColumns } from '@/lib/standards/writers';
import { parseDateRange } from '@/lib/values/dates';
import { humanList, isProject, type Page, parseProject, parseSvcIds, type Raw, type ReturnType, type Standard, splitList } from './params';
import {
  countShapes,
  type Lookup,
  lookupBatches,
  lookupRows,
  lookupStream,
  sampleRowStream,
  sampleRows,
  sampleStream,
  shapesOf,
} from './sample-rows';
import { keysetRows, type RowStream, rowStream } from './stream';

export interface SampleQuery {
  standard: Standard;
  page: Page;
  /** what the answer is sent as: a JSON answer's rows are written as they arrive from the database */
  returnType?: ReturnType;
}

/** Sub-projects the sample filters accept (docs/api-behaviour.md §2.2): the ERGA ones, without SANGER, retired ones too. */
export const filterAssociatedTypes = async (db: Db): Promise<string[]> =>
  subProjects(await referenceData(db))
    .map((a) => a.name)
    .sort();

/** svc_ids of the samples of one or more projects (GET sample/{project}). */
export async function sampleIdsOfProjects(db: Db, input: { projects: Raw; page: Page }): Promise<RowStream<string>> {
  const projects = splitList(input.projects, { lower: true });
  if (!projects.length || !projects.every(isProject)) {
    throw Invalid(`Invalid project(s) provided! Accepted values are ${humanList(TOL_PROJECTS)}.`);
  }
  const where = inArray(samples.project, projects);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(samples).where(where);
  const rows = keysetRows(
    async ({ after, limit, offset }) => {
      const batch = await db
        .select({ id: samples.id })
        .from(samples)
        .where(and(where, after ? gt(samples.id, after) : undefined))
        .orderBy(asc(samples.id))
        .limit(limit)
        .offset(offset);
      return batch.map((r) => r.id);
    },
    (id: string) => id,
    input.page,
  );
  return rowStream(Number(count?.n ?? 0), ['svc_id'], rows);
}

/** Samples of profiles carrying every one of the sub-projects named (AND, as the reference). */
export async function samplesOfAssociatedProjects(db: Db, input: SampleQuery & { values: Raw }): Promise<RowStream<SampleRecord>> {
  const values = splitList(input.values, { upper: true });
  const accepted = await filterAssociatedTypes(db);
  if (!values.length || values.some((v) => !accepted.includes(v))) {
    throw Invalid(`Invalid associated project type(s) provided! Accepted values are ${humanList(accepted)}.`);
  }
  return sampleStream(db, arrayContains(samples.associatedTolProjects, values), input);
}

export function createdCondition(from: string, to: string): SQL {
  const range = parseDateRange(from, to, true);
  return and(gte(samples.timeCreated, range.from), lt(samples.timeCreated, range.to)) as SQL;
}

/** Samples created in [from, to), newest first. */
export function samplesCreatedBetween(db: Db, input: SampleQuery & { from: string; to: string }): Promise<RowStream<SampleRecord>> {
  return sampleStream(db, createdCondition(input.from, input.to), { ...input, order: 'newest' });
}

/** Samples by svc_id, in the order asked (the list is bounded by the URL, so it is read at once). */
export async function samplesBySvcIds(db: Db, input: SampleQuery & { ids: Raw }): Promise<RowStream<SampleRecord>> {
  const ids = parseSvcIds(input.ids, (bad) => `Invalid 'svc_id' value(s): ${humanList(bad.length ? bad : [''])}`);
  // every match is read, so the CSV columns come from the rows: one query for a look-up
  const lookup: Lookup = { column: 'id', values: ids };
  let found = await lookupRows(db, lookup);
  if (!found) {
    found = [];
    for await (const batch of lookupBatches(db, lookup, { offset: 0 })) found.push(...batch);
  }
  const position = new Map(ids.map((id, i) => [id, i]));
  found.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  return pageOfRows(found, input);
}

/**
 * A page of every match of a look-up, read whole: the count and the CSV columns from all of them, the page's rows
 * written straight from what was read, as any other sample list (no record built per row), and at once.
 */
function pageOfRows(found: SampleRow[], input: SampleQuery): RowStream<SampleRecord> {
  const { offset, limit } = input.page;
  const page = found.slice(offset, limit === undefined ? undefined : offset + limit);
  return sampleRowStream(batchOf(page), found.length, recordColumns(shapesOf(found), input.standard), input.standard, undefined, page);
}

async function* batchOf<R>(rows: R[]): AsyncGenerator<R[]> {
  if (rows.length) yield rows;
}

const accessionsOf = (raw: Raw): string[] => {
  const accessions = splitList(raw, { upper: true });
  if (!accessions.length) throw Invalid("'biosampleAccessions' is required but not provided.");
  return accessions;
};

/** Accessions are upper case (SAMEA…): any case is accepted. In svc_id order. */
export async function samplesByBiosampleAccessions(db: Db, input: SampleQuery & { accessions: Raw }): Promise<RowStream<SampleRecord>> {
  const lookup: Lookup = { column: 'biosampleAccession', values: accessionsOf(input.accessions) };
  const found = await lookupRows(db, lookup);
  return found ? pageOfRows(found, input) : lookupStream(db, lookup, input);
}

/** NCBI taxon ids, matched exactly. */
export function taxonCondition(raw: Raw): SQL {
  const ids = splitList(raw);
  const bad = ids.filter((id) => !/^\d+$/.test(id));
  if (!ids.length || bad.length) throw Invalid(`Invalid 'taxon_id' value(s): ${humanList(bad.length ? bad : [''])}`);
  return inArray(samples.taxonId, ids);
}

export function samplesByTaxonIds(db: Db, input: SampleQuery & { taxonIds: Raw }): Promise<RowStream<SampleRecord>> {
  return sampleStream(db, taxonCondition(input.taxonIds), input);
}

/** What a centre is found by: its short name and its label (lib/reference). */
export type CentreNames = Pick<SequencingCentre, 'name' | 'label'>;

/**
 * A sequencing centre of `centres` (every one, retired ones too: their samples are still found by them) by label or
 * short name, any case; 400 with the accepted labels otherwise (§3.4.2).
 */
export function parseSequencingCentre<C extends CentreNames>(raw: Raw, centres: readonly C[]): C {
  const value = [raw ?? []].flat().join(',').trim();
  const centre = value ? findSequencingCentre(centres, value) : undefined;
  if (!centre) throw Invalid(`Invalid value for 'sequencing_centre'. Accepted values are: ${humanList(centres.map((c) => c.label))}`);
  return centre;
}

/**
 * Samples of a sequencing centre: those whose profile chose the centre, and those whose GAL is the centre (the
 * reference matched both; DTOL profiles choose no centre, so GAL is how their samples are found).
 */
export function sequencingCentreCondition(raw: Raw, centres: readonly CentreNames[]): SQL {
  const centre = parseSequencingCentre(raw, centres);
  return or(arrayContains(samples.sequencingCentres, [centre.name]), sql`upper(${samples.fields}->>'GAL') = upper(${centre.label})`) as SQL;
}

export async function samplesOfSequencingCentre(db: Db, input: SampleQuery & { centre: Raw }): Promise<RowStream<SampleRecord>> {
  return sampleStream(db, sequencingCentreCondition(input.centre, (await referenceData(db)).sequencingCentres), input);
}

/** Samples with an image submitted to the BioImage Archive, newest image first (§3.5.10). */
export async function samplesWithSubmittedBioimages(
  db: Db,
  input: { project: Raw; from?: string; to?: string; page: Page },
): Promise<RowStream<Record<string, string>>> {
  const project = parseProject(input.project, 'project');
  const range = parseDateRange(input.from, input.to, false);
  const where = and(
    sql`${samples.project} = ${project}`,
    isNotNull(samples.lastBioimageSubmitted),
    range ? gte(samples.lastBioimageSubmitted, range.from) : undefined,
    range ? lt(samples.lastBioimageSubmitted, range.to) : undefined,
  );
  const { total } = await countShapes(db, where);
  const columns = ['SPECIMEN_ID', 'TAXON_ID', 'biosampleAccession', 'last_bioimage_submitted', 'svc_profile_title', 'tol_project'];
  async function* rows() {
    for await (const row of sampleRows(db, where, 'newestImage', input.page)) {
      const r = renderSample(row, 'tol');
      yield Object.fromEntries(columns.filter((k) => k in r).map((k) => [k, r[k] as string]));
    }
  }
  return rowStream(total, columns, rows());
}
