// the tests' names for the contract's
export { BROWSE_STATUSES, SAMPLE_SORTS, SampleBrowseQuerySchema as sampleBrowseParams, type SampleSort } from './contract';
