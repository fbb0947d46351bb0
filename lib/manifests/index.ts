/**
 * Tree of Life sample manifests (DTOL, ASG, ERGA, DTOLENV): definitions, parsing, validation and blank templates.
 * Pure library code: storage and HTTP live elsewhere and inject what validation needs (taxonomy, stored samples).
 */
export {
  compareVersions,
  CURRENT_VERSIONS,
  currentDefinition,
  findDefinition,
  isManifestProject,
  loadManifestDefinitions,
} from './definitions';
export { ManifestParseError, TaxonomyUnavailableError, type ManifestParseReason } from './errors';
export { manifestFormat, METADATA_SHEET, parseManifest, type ManifestFormat, type ParseOptions } from './parse';
export { RULES, type RuleCode } from './rules/catalogue';
export { checkManifestFile } from './sniff';
export { buildTemplate, LISTS_SHEET } from './template';
export { DEFAULT_MAX_ROWS, validateManifest } from './validate';
export * from './types';
