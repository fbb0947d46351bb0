export {
  type GenomeAssemblyType,
  type GenomeManifest,
  type GenomeMoleculeType,
  type SequenceManifest,
  type TranscriptomeManifest,
  type WebinCliContext,
  type WebinCliManifest,
  type WebinCliManifests,
  writeManifestText,
} from './manifest';
export { runWebinCli, WebinCliFailure, type WebinCliOptions, type WebinCliRequest, type WebinCliResult } from './run';
