/** The profile as the API returns it. */
export interface ProfileJson {
  id: string;
  title: string;
  description: string;
  type: string;
  associated_type: string[];
  sequencing_centre: string[];
  date_created: string;
  date_modified: string;
}

export interface ProfileFormOptions {
  types: { type: string; label: string; allowed: boolean; choosesAssociatedTypes: boolean; choosesSequencingCentres: boolean }[];
  associatedTypes: { name: string; label: string }[];
  sequencingCentres: { name: string; label: string }[];
}
