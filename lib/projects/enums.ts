import type { ProfileType, TolProject } from './contract';

export interface ProfileTypeInfo {
  type: ProfileType;
  label: string;
  /** a Tree of Life project: creating and using such profiles needs the project's membership */
  tol: boolean;
  /** offered for new profiles; `genomics` is legacy */
  creatable: boolean;
  /** associated types every profile of this type carries */
  fixedAssociatedTypes: readonly string[];
  /** whether the user picks associated types and sequencing centres (ERGA only) */
  choosesAssociatedTypes: boolean;
  choosesSequencingCentres: boolean;
}

const tolType = (type: ProfileType, label: string, fixedAssociatedTypes: string[]): ProfileTypeInfo => ({
  type,
  label,
  tol: true,
  creatable: true,
  fixedAssociatedTypes,
  choosesAssociatedTypes: false,
  choosesSequencingCentres: false,
});

// the legacy type, also what a type missing from the list below reads as
const GENOMICS: ProfileTypeInfo = { ...tolType('genomics', 'Genomics', []), tol: false, creatable: false };

/** Profile types of the reference system (docs/api-behaviour.md §2.1). */
export const PROFILE_TYPE_INFO: readonly ProfileTypeInfo[] = [
  tolType('asg', 'Aquatic Symbiosis Genomics (ASG)', ['ASG']),
  tolType('dtol', 'Darwin Tree of Life (DTOL)', ['DTOL']),
  tolType('dtolenv', 'Darwin Tree of Life Environmental Samples (DTOLENV)', ['DTOL_ENV']),
  {
    ...tolType('erga', 'European Reference Genome Atlas (ERGA)', []),
    choosesAssociatedTypes: true,
    choosesSequencingCentres: true,
  },
  { ...tolType('biodata', 'Biodata', []), tol: false },
  GENOMICS,
];

export const profileTypeInfo = (type: ProfileType): ProfileTypeInfo => PROFILE_TYPE_INFO.find((t) => t.type === type) ?? GENOMICS;

/** The Tree of Life project whose membership a profile type needs, or null. */
export const tolProjectOf = (type: ProfileType): TolProject | null =>
  type === 'asg' || type === 'dtol' || type === 'dtolenv' || type === 'erga' ? type : null;

// The associated types (sub-projects) and sequencing centres are reference data administrators edit: tables seeded by
// db/migrations/0023, read through lib/reference.
