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

export interface AssociatedTypeInfo {
  name: string;
  label: string;
  approvalRequired: boolean;
  /** chosen by the user on ERGA profiles (the others are fixed by the profile type or added automatically) */
  selectable: boolean;
}

/** Associated profile types, i.e. sub-projects (docs/api-behaviour.md §2.2). */
export const ASSOCIATED_TYPES: readonly AssociatedTypeInfo[] = [
  { name: 'ASG', label: 'Aquatic Symbiosis Genomics (ASG)', approvalRequired: true, selectable: false },
  { name: 'BGE', label: 'Biodiversity Genomics Europe (BGE)', approvalRequired: true, selectable: true },
  { name: 'BIOBLITZ', label: 'BioBlitz', approvalRequired: true, selectable: true },
  { name: 'CBP', label: 'Catalan Initiative for the Earth BioGenome Project (CBP)', approvalRequired: true, selectable: true },
  { name: 'DTOL', label: 'Darwin Tree of Life (DTOL)', approvalRequired: true, selectable: false },
  { name: 'DTOL_ENV', label: 'Darwin Tree of Life Environmental Samples (DTOL_ENV)', approvalRequired: false, selectable: false },
  { name: 'ERGA', label: 'European Reference Genome Atlas (ERGA)', approvalRequired: false, selectable: false },
  { name: 'ERGA_PILOT', label: 'European Reference Genome Atlas - Pilot (ERGA_PILOT)', approvalRequired: true, selectable: true },
  {
    name: 'ERGA_COMMUNITY',
    label: 'European Reference Genome Atlas - Community (ERGA_COMMUNITY)',
    approvalRequired: true,
    selectable: true,
  },
  { name: 'POP_GENOMICS', label: 'Population Genomics (POP_GENOMICS)', approvalRequired: true, selectable: true },
  { name: 'SANGER', label: 'Sanger Institute Approval Needed (SANGER)', approvalRequired: true, selectable: true },
];

export interface SequencingCentreInfo {
  /** stored on profiles */
  name: string;
  /** what the reference API's `sequencing_centre` parameter takes */
  label: string;
  /** picking it adds an associated type of the same name, so its samples wait for that centre's approval */
  approvalRequired: boolean;
}

/** Sequencing centres (docs/api-behaviour.md §2.3), in the reference system's order. */
export const SEQUENCING_CENTRES: readonly SequencingCentreInfo[] = [
  { name: 'UNIBA', label: 'UNIVERSITY OF BARI', approvalRequired: false },
  { name: 'BIDGEN', label: 'DNA SEQUENCING AND GENOMICS LABORATORY, HELSINKI GENOMICS CORE FACILITY', approvalRequired: false },
  { name: 'CNAG', label: 'CENTRO NACIONAL DE ANÁLISIS GENÓMICO', approvalRequired: false },
  { name: 'EI', label: 'EARLHAM INSTITUTE', approvalRequired: false },
  { name: 'FGCZ', label: 'FUNCTIONAL GENOMIC CENTER ZURICH', approvalRequired: false },
  { name: 'GENOSCOPE', label: 'GENOSCOPE', approvalRequired: false },
  { name: 'GTF', label: 'LAUSANNE GENOMIC TECHNOLOGIES FACILITY', approvalRequired: false },
  { name: 'HANSEN', label: 'HANSEN LAB, DENMARK', approvalRequired: false },
  { name: 'LIB', label: 'LEIBNIZ INSTITUTE FOR THE ANALYSIS OF BIODIVERSITY CHANGE, MUSEUM KOENIG, BONN', approvalRequired: false },
  { name: 'NCCT', label: 'NGS COMPETENCE CENTER TÜBINGEN', approvalRequired: false },
  { name: 'NGS', label: 'NGS BERN', approvalRequired: false },
  { name: 'NSC', label: 'NORWEGIAN SEQUENCING CENTRE', approvalRequired: false },
  { name: 'NSF', label: 'NEUROMICS SUPPORT FACILITY, UANTWERP, VIB', approvalRequired: false },
  { name: 'PARTNER', label: 'INDUSTRY PARTNER', approvalRequired: false },
  { name: 'SANGER', label: 'SANGER INSTITUTE', approvalRequired: true },
  { name: 'SCILIFE', label: 'SCILIFELAB', approvalRequired: false },
  { name: 'SVARDAL', label: 'SVARDAL LAB, ANTWERP', approvalRequired: false },
  { name: 'UNIFI', label: 'UNIVERSITY OF FLORENCE', approvalRequired: false },
  { name: 'WGGC', label: 'WEST GERMAN GENOME CENTRE', approvalRequired: false },
  { name: 'OTHER', label: 'OTHER', approvalRequired: false },
];

const fold = (s: string) => s.normalize('NFC').trim().toUpperCase();

/** A centre by its short name or its label, in any case. */
export const findSequencingCentre = (value: string): SequencingCentreInfo | undefined => {
  const v = fold(value);
  return SEQUENCING_CENTRES.find((c) => c.name === v || fold(c.label) === v);
};

/** An associated type by its name (any case) or its label. */
export const findAssociatedType = (value: string): AssociatedTypeInfo | undefined => {
  const v = fold(value);
  return ASSOCIATED_TYPES.find((a) => a.name === v || fold(a.label) === v);
};
