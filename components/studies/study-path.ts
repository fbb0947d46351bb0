/** the path parameters naming one study of a profile's, in one schema, as the study routes take them */
export interface StudyPath {
  profile_id: string;
  schema_name: string;
  study_id: string;
}
