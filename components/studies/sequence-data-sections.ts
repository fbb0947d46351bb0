import type { SequenceDataKind } from '@/lib/submissions/study/contract';

/**
 * The sections of what was made from a profile's samples, one per kind, in their order: for the sections themselves
 * (./sequence-data.tsx) and for the "On this page" lists of both kinds of profile. Kept apart from the component so
 * that a page rendered on the server can read it (a client module's exports are references there, not values).
 */
export interface SequenceDataSectionInfo {
  kind: SequenceDataKind;
  /** the section's id, for "On this page" */
  id: string;
  title: string;
  /** what a row is: "1 read row", "3 assemblies" */
  one: string;
  many: string;
  /** the header of the column that names the row's content */
  nameHeader: string;
}

export const SEQUENCE_DATA_SECTIONS: readonly SequenceDataSectionInfo[] = [
  { kind: 'read', id: 'reads', title: 'Reads', one: 'read row', many: 'read rows', nameHeader: 'Files' },
  { kind: 'assembly', id: 'assemblies', title: 'Assemblies', one: 'assembly', many: 'assemblies', nameHeader: 'Assembly' },
  { kind: 'annotation', id: 'annotations', title: 'Annotations', one: 'annotation', many: 'annotations', nameHeader: 'Title' },
];
