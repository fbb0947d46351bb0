/**
 * Tree of Life sample manifests (DTOL, ASG, ERGA, DTOLENV): definitions, parsing, validation and blank templates.
 * Pure library code: storage and HTTP live elsewhere and inject what validation needs (taxonomy, stored samples).
 */
export {
  CURRENT_VERSIONS,
  compareVersions,
  currentDefinition,
  findDefinition,
  inManifestOrder,
  isManifestProject,
  loadManifestDefinitions,
} from './definitions';
export { ManifestParseError, TaxonomyUnavailableError } from './errors';
export { METADATA_SHEET, parseManifest } from './parse';
export { RULES, type RuleCode } from './rules/catalogue';
export { checkManifestFile } from './sniff';
export { buildTemplate, LISTS_SHEET } from './template';
export * from './types';
export { validateManifest } from './validate';
