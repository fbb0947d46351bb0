/**
 * What the sample browser asks the API for, said once for its client part (sample-browser.tsx) and for the server,
 * which reads the first answer with the page (app/(portal)/samples/page.tsx).
 */
export const SAMPLE_BROWSE_KEY = 'sample-browse';
/** Everything the URL may carry, in the endpoint's names. */
export const SAMPLE_BROWSE_PARAMS = [
  'profiles',
  'project',
  'status',
  'manifest_id',
  'sequencing_centre',
  'taxon_id',
  'scientific_name',
  'field',
  'contains',
  'standard',
  'sort',
  'order',
  'limit',
  'offset',
] as const;
