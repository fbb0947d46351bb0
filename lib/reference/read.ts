import type { Db } from '@/db/client';
import { PROFILE_TYPE_INFO } from '@/lib/projects/enums';
import { type AssociatedType, type ReferenceData, referenceCache, type SequencingCentre } from './cache';

export type { ReferenceData, SequencingCentre } from './cache';

/**
 * The one way every domain reads the associated project types and sequencing centres: from the process's copy of
 * the tables (lib/reference/cache.ts), in their order. Names are stored upper case; look-ups by a person's spelling
 * take the name or the label in any case.
 */

export const referenceData = (db: Db): Promise<ReferenceData> => referenceCache(db).read();

export const associatedTypes = async (db: Db): Promise<readonly AssociatedType[]> => (await referenceData(db)).associatedTypes;

export const sequencingCentres = async (db: Db): Promise<readonly SequencingCentre[]> => (await referenceData(db)).sequencingCentres;

/** The associated types a sample carrying them waits for an approval of. */
export const approvalTypes = async (db: Db): Promise<ReadonlySet<string>> => (await referenceData(db)).approvalTypes;

/** The associated types whose approval a changed re-upload keeps (approval_required_on_update false). */
export const approvalsKeptOnUpdate = async (db: Db): Promise<ReadonlySet<string>> =>
  new Set((await associatedTypes(db)).filter((t) => !t.approvalRequiredOnUpdate).map((t) => t.name));

const fold = (s: string) => s.normalize('NFC').trim().toUpperCase();

type Named = { name: string; label: string };

function byNameOrLabel<T extends Named>(list: readonly T[], value: string): T | undefined {
  const v = fold(value);
  return list.find((x) => x.name === v) ?? list.find((x) => fold(x.label) === v);
}

/** An associated type of `list` by its name (any case) or its label. */
export const findAssociatedType = <T extends Named>(list: readonly T[], value: string): T | undefined => byNameOrLabel(list, value);

/** A centre of `list` by its short name or its label, in any case. */
export const findSequencingCentre = <T extends Named>(list: readonly T[], value: string): T | undefined => byNameOrLabel(list, value);

/**
 * The sub-projects (docs/api-behaviour.md §2.2): the associated types that are neither a Tree of Life project's own
 * nor a sequencing centre's (so not SANGER), retired ones included, in the lists' order.
 */
export function subProjects(data: ReferenceData): AssociatedType[] {
  const excluded = new Set([
    ...PROFILE_TYPE_INFO.filter((t) => t.tol).flatMap((t) => [t.type.toUpperCase(), ...t.fixedAssociatedTypes]),
    ...data.sequencingCentres.map((c) => c.name),
  ]);
  return data.associatedTypes.filter((a) => !excluded.has(a.name));
}

/** The label of each name, the name itself for one the lists do not hold. */
export const labelsOf = (list: readonly { name: string; label: string }[]) => {
  const labels = new Map(list.map((x) => [x.name, x.label]));
  return (name: string) => labels.get(name) ?? name;
};
