export { type GenomeManifest, type SequenceManifest, writeManifestText } from './manifest';
export { runWebinCli, WebinCliFailure, type WebinCliOptions } from './run';
export { type WebinCliSettings, webinCliSettings } from './settings';
