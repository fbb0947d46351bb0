// The reference lists of profile types, associated types and sequencing centres are the projects' (lib/projects/enums.ts),
// below every domain that names them; the portal's profile page and sample browser still import them from here.
export { ASSOCIATED_TYPES, profileTypeInfo, SEQUENCING_CENTRES } from '@/lib/projects/enums';
