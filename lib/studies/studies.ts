import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { checklists, studies } from '@/db/schema';
import type { SchemaName } from '@/lib/checklists/contract';
import { checklistExists, getChecklistDefinition, listing, requireSchema, unknownChecklist } from '@/lib/checklists/definitions';
import { Invalid, NotFound } from '@/lib/errors';
import type { ProfileNeed } from '@/lib/profiles/access';
import { getProfile } from '@/lib/profiles/profiles';
import { REPOSITORIES, type Repository } from '@/lib/repositories/contract';
import type { UserRecord } from '@/lib/users/users';
import { trimEndOf } from '@/lib/values/text';
import type { StudyAccessions } from './contract';
import { studyJsonLd, vocabularyBase } from './jsonld';
import { type RepositoryState, repositoryStates } from './status';
import { writeStudyWorkbook } from './write';

export type StudyRow = typeof studies.$inferSelect;

export interface StudyScope {
  profileId: string;
  /** as in the path: any case */
  schemaName: string;
}

export interface StudyFile {
  fileName: string;
  contentType: string;
  body: Uint8Array | string;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const JSONLD_TYPE = 'application/ld+json';
export const RETURN_TYPES = ['xlsx', 'jsonld'] as const;
export type StudyReturnType = (typeof RETURN_TYPES)[number];

/** The profile (404 when unknown or not the caller's) and the schema (404 when unknown). */
async function scope(
  db: Db,
  user: UserRecord,
  input: StudyScope,
  need: ProfileNeed = 'view',
): Promise<{ profileId: string; schema: SchemaName }> {
  const profile = await getProfile(db, user, input.profileId, need);
  return { profileId: profile.id, schema: requireSchema(input.schemaName) };
}

/** The blank spreadsheet of a checklist, named as the reference names its templates. */
export async function studyTemplate(db: Db, user: UserRecord, input: StudyScope & { checklistId?: string }): Promise<StudyFile> {
  const { schema } = await scope(db, user, input);
  const def = await getChecklistDefinition(db, schema, input.checklistId);
  return {
    fileName: `${schema}_${def.checklistId}_manifest_template_v${def.version}.xlsx`,
    contentType: XLSX_TYPE,
    body: await writeStudyWorkbook(def),
  };
}

/** A study of the profile under the schema; 404 `No record found` otherwise. */
export async function getStudy(
  db: Db,
  user: UserRecord,
  input: StudyScope & { studyId: string },
  /** 'contribute' for what changes the study or sends it on (a viewer is refused, 403) */
  need: ProfileNeed = 'view',
): Promise<StudyRow> {
  const { profileId, schema } = await scope(db, user, input, need);
  return findStudy(db, profileId, schema, input.studyId);
}

async function findStudy(db: Db, profileId: string, schema: SchemaName, studyId: string): Promise<StudyRow> {
  const [row] = await db
    .select()
    .from(studies)
    .where(and(eq(studies.profileId, profileId), eq(studies.schemaName, schema), eq(studies.studyId, studyId)));
  if (!row) throw NotFound('No record found');
  return row;
}

export function parseReturnType(raw: string | undefined): StudyReturnType {
  const value = (raw ?? 'xlsx').trim().toLowerCase() || 'xlsx';
  const type = RETURN_TYPES.find((t) => t === value);
  if (!type) {
    const message = `Invalid value for 'return_type'. Accepted values are: ${listing(RETURN_TYPES)}`;
    throw Invalid(message, [{ path: 'return_type', message }]);
  }
  return type;
}

/** The study as the spreadsheet it was uploaded as (re-uploadable unchanged), or as JSON-LD. */
export async function exportStudy(
  db: Db,
  user: UserRecord,
  input: StudyScope & { studyId: string; returnType?: string; baseUrl: string },
): Promise<StudyFile> {
  const { profileId, schema } = await scope(db, user, input);
  const returnType = parseReturnType(input.returnType);
  const study = await findStudy(db, profileId, schema, input.studyId);
  const def = await getChecklistDefinition(db, schema, study.checklistId);
  const name = `${schema}_manifest_${study.studyId}`;
  if (returnType === 'xlsx') {
    return { fileName: `${name}.xlsx`, contentType: XLSX_TYPE, body: await writeStudyWorkbook(def, study.components) };
  }
  const base = trimEndOf(input.baseUrl, '/');
  const doc = studyJsonLd(def, study.components, {
    vocab: vocabularyBase(base, schema),
    id: `${base}/api/profiles/${profileId}/schema/${schema}/studies/${encodeURIComponent(study.studyId)}`,
  });
  return { fileName: `${name}.jsonld`, contentType: JSONLD_TYPE, body: JSON.stringify(doc, null, 2) };
}

export interface StudySummary {
  studyId: string;
  schemaName: SchemaName;
  checklistId: string;
  profileId: string;
  /** the study sheet's row: term_name → value */
  values: Record<string, string>;
  /** one entry per repository the study component is submitted to */
  repositories: Partial<Record<Repository, RepositoryState>>;
  /** rows per component */
  counts: Record<string, number>;
  accessions: StudyAccessions;
  createdAt: Date;
  updatedAt: Date;
}

/** The profile's studies under the schema (optionally one checklist), oldest first. */
export async function listStudies(
  db: Db,
  user: UserRecord,
  input: StudyScope & { checklistId?: string; page: { limit: number; offset: number } },
): Promise<{ rows: StudySummary[]; total: number }> {
  const { profileId, schema } = await scope(db, user, input);
  const checklistId = input.checklistId?.trim().toLowerCase();
  if (checklistId && !(await checklistExists(db, schema, checklistId))) throw await unknownChecklist(db, schema);
  const where = and(
    eq(studies.profileId, profileId),
    eq(studies.schemaName, schema),
    checklistId ? eq(studies.checklistId, checklistId) : undefined,
  );
  const { rows, total } = await pageWithTotal(
    db,
    db.select().from(studies).where(where).$dynamic(),
    [asc(studies.createdAt), asc(studies.studyId)],
    input.page,
  );
  const targets = await studyTargets(db, schema);
  const states = await repositoryStates(db, rows, (s) => targets.get(s.checklistId) ?? []);
  const summaries = rows.map((s) => ({
    studyId: s.studyId,
    schemaName: s.schemaName,
    checklistId: s.checklistId,
    profileId: s.profileId,
    values: s.components.study?.[0] ?? {},
    repositories: Object.fromEntries(states.get(s.id) ?? []),
    counts: Object.fromEntries(Object.entries(s.components).map(([k, v]) => [k, v.length])),
    accessions: s.accessions,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }));
  return { rows: summaries, total };
}

/** Per checklist of the schema, the repositories its study component goes to (the components sheet's mapping). */
async function studyTargets(db: Db, schema: SchemaName): Promise<Map<string, Repository[]>> {
  const rows = await db
    .select({
      checklistId: checklists.checklistId,
      repositories: sql<unknown>`jsonb_path_query_first(${checklists.fields}, '$[*] ? (@.key == "study").repositories')`,
    })
    .from(checklists)
    .where(eq(checklists.schemaName, schema));
  return new Map(
    rows.map((r) => {
      const repos = typeof r.repositories === 'object' && r.repositories !== null ? Object.keys(r.repositories) : [];
      return [r.checklistId, REPOSITORIES.filter((repo) => repos.includes(repo))];
    }),
  );
}
