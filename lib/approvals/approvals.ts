import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples } from '@/db/schema';
import { TOL_PROJECTS, type TolProject } from '@/lib/projects/contract';
import { PROFILE_TYPE_INFO } from '@/lib/projects/enums';
import { approvalTypes } from '@/lib/reference/read';
import type { UserRecord } from '@/lib/users/users';
import type { ApprovalGiven, SampleApprovals } from './contract';

/**
 * Who approves what (docs/tol-manifests.md §3.2). A sample of an associated type flagged "approval required" waits until an
 * approver of that type has accepted it, each type on its own; it goes on to ENA once every such type has an approval.
 *
 * The rule, in one sentence each:
 * - An approver of a type (users.approverOf, named by admins) approves that type on every sample carrying it.
 * - A sample manager of a project (managerOf) approves the project's own type on its samples (DTOL on dtol samples,
 *   ASG on asg samples), so DTOL and ASG work with manager roles alone as before; the types a profile adds (BGE,
 *   ERGA_COMMUNITY, POP_GENOMICS, SANGER…) need their own approvers. ERGA has no type of its own that needs approval.
 * - Admins approve every type.
 * - Whoever may approve one of a sample's required types, and the project's managers, decide on it: any of them may
 *   reject it, and an accept records the approvals that are theirs. A sample with nothing awaited (DTOL_ENV needs no
 *   approval; a registration that failed after approval) is sent on by the accept of any of them.
 *
 * Which types need approval is reference data administrators edit (lib/reference): the callers read the set with
 * `approvalTypes(db)` and pass it in (`required`), so these rules stay plain functions.
 */

/**
 * Per project, its own type (DTOL for dtol, ASG for asg), which the project's managers approve when it needs approval:
 * every use below takes it only among a sample's required types.
 */
export const PROJECT_APPROVAL_TYPE: Partial<Record<TolProject, string>> = Object.fromEntries(
  PROFILE_TYPE_INFO.flatMap((p) => {
    const own = p.fixedAssociatedTypes[0];
    return (TOL_PROJECTS as readonly string[]).includes(p.type) && own ? [[p.type, own]] : [];
  }),
);

/** Statuses in which a sample waits for a decision (a `private` one waits for its rights first: lib/samples/rights.ts). */
export const AWAITING_DECISION = ['pending'] as const;

/** What a user approves: every type (admins), or the types they approve and the projects they manage. */
export interface ApproverScope {
  all: boolean;
  /** the associated types that need approval now (lib/reference) */
  required: ReadonlySet<string>;
  /** the approval-required types they are named approver of */
  types: string[];
  managed: TolProject[];
}

/**
 * `named`: only the roles the user was given, not an admin's reach (reminders go to the people named for the work,
 * not to every admin).
 */
export const approverScope = (user: UserRecord, required: ReadonlySet<string>, opts: { named?: boolean } = {}): ApproverScope => ({
  all: user.isAdmin && !opts.named,
  required,
  types: user.approverOf.filter((t) => required.has(t)),
  managed: user.managerOf,
});

/** approverScope with the types that need approval now, read from the reference data. */
export const approverScopeIn = async (db: Db, user: UserRecord, opts: { named?: boolean } = {}): Promise<ApproverScope> =>
  approverScope(user, await approvalTypes(db), opts);

/** Whether the user has any part in approving samples (the review queue, its count). */
export const reviewsSamples = (user: UserRecord, required: ReadonlySet<string>): boolean =>
  user.isAdmin || user.managerOf.length > 0 || user.approverOf.some((t) => required.has(t));

interface SampleTypes {
  project: TolProject;
  associatedTolProjects: string[];
}

/** The associated types of the sample that need an approval (`required`: the types that need one now). */
export const requiredTypes = (s: Pick<SampleTypes, 'associatedTolProjects'>, required: ReadonlySet<string>): string[] =>
  [...new Set(s.associatedTolProjects)].filter((t) => required.has(t)).sort();

/** The required types of the sample without an approval yet. */
export const awaitedTypes = (
  s: Pick<SampleTypes, 'associatedTolProjects'>,
  approvals: SampleApprovals,
  required: ReadonlySet<string>,
): string[] => requiredTypes(s, required).filter((t) => !approvals[t]);

/** The required types of the sample that this scope approves. */
export function typesApprovedBy(scope: ApproverScope, s: SampleTypes): string[] {
  const own = scope.managed.includes(s.project) ? PROJECT_APPROVAL_TYPE[s.project] : undefined;
  return requiredTypes(s, scope.required).filter((t) => scope.all || scope.types.includes(t) || t === own);
}

/** Whether this scope decides on the sample: it manages the project, or approves one of the sample's required types. */
export const decidesOn = (scope: ApproverScope, s: SampleTypes): boolean =>
  scope.all || scope.managed.includes(s.project) || typesApprovedBy(scope, s).length > 0;

// the predicates in SQL, over the samples table, for counts and pages
const textArray = (values: readonly string[]) => sql`${sql.param([...values])}::text[]`;
const awaitedExists = (required: ReadonlySet<string>, extra: SQL) =>
  sql`exists (select 1 from unnest(${samples.associatedTolProjects}) as t(name) where t.name = any(${textArray([...required])}) and (${samples.approvals} -> t.name) is null and ${extra})`;
const ownTypeOf = () => {
  const pairs = Object.entries(PROJECT_APPROVAL_TYPE);
  return pairs.length
    ? sql`(case ${samples.project} ${sql.join(
        pairs.map(([project, type]) => sql`when ${project} then ${type}`),
        sql` `,
      )} end)`
    : sql`null::text`;
};

/** SQL: the sample is one this scope decides on. */
export function decidesOnSql(scope: ApproverScope): SQL {
  if (scope.all) return sql`true`;
  return sql`(${samples.project} = any(${textArray(scope.managed)}) or ${samples.associatedTolProjects} && ${textArray(scope.types)})`;
}

/**
 * SQL: the sample awaits a decision and waits for this scope: an approval of one of its awaited types that the scope
 * approves (typesApprovedBy), or, when it awaits no approval, the accept of one who decides on it (decidesOn).
 */
export function waitsForSql(scope: ApproverScope): SQL {
  const awaiting = sql`${samples.status} in (${sql.join(
    AWAITING_DECISION.map((s) => sql`${s}`),
    sql`, `,
  )})`;
  if (scope.all) return awaiting;
  const mine = sql`(t.name = any(${textArray(scope.types)}) or (${samples.project} = any(${textArray(scope.managed)}) and t.name = ${ownTypeOf()}))`;
  return sql`(${awaiting} and (${awaitedExists(scope.required, mine)} or (not ${awaitedExists(scope.required, sql`true`)} and ${decidesOnSql(scope)})))`;
}

/** A sample's approvals as the API shows them, with the approvers' names. */
export const approvalsGiven = (approvals: SampleApprovals, usernames: ReadonlyMap<number, string>): ApprovalGiven[] =>
  Object.entries(approvals)
    .flatMap(([type, a]) =>
      a ? [{ associated_type: type, user_id: a.user_id, approved_by: usernames.get(a.user_id) ?? null, approved_at: a.date }] : [],
    )
    .sort((a, b) => a.associated_type.localeCompare(b.associated_type));

/** The approvers named in these samples' approvals. */
export const approverIds = (rows: { approvals: SampleApprovals }[]): number[] => [
  ...new Set(rows.flatMap((r) => Object.values(r.approvals).flatMap((a) => (a ? [a.user_id] : [])))),
];
