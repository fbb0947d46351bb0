import { AppError } from '@/lib/errors';
import type { ManifestParseReason } from './contract';

/**
 * A file that cannot be read as a manifest at all. It is an AppError so the HTTP layer maps it without knowing this
 * module: an unsupported file type is 415, a spreadsheet we cannot use is 422.
 */
export class ManifestParseError extends AppError {
  constructor(
    readonly reason: ManifestParseReason,
    message: string,
  ) {
    super(reason === 'unsupported_format' ? 'unsupported_media_type' : 'unprocessable', message, undefined, { reason });
    this.name = 'ManifestParseError';
  }
}

/**
 * The taxonomy service failed (not "taxon unknown", which is a validation issue). Thrown out of validateManifest so
 * that the job running it can retry later instead of storing a report that blames the manifest.
 */
export class TaxonomyUnavailableError extends Error {
  constructor(cause: unknown) {
    super('Service Error - The taxonomy service may be down, please try again later.', { cause });
    this.name = 'TaxonomyUnavailableError';
  }
}
