/**
 * Typed domain errors. Domain functions throw these; lib/api/errors.ts maps each code to an HTTP status
 * and a problem+json body, so no domain code knows about HTTP.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable';

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    /** extra members added to the problem body (e.g. a validation report) */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const Invalid = (message: string, errors?: FieldError[]) => new AppError('invalid', message, errors);
/** One field is wrong: the same sentence for the problem and beside the field, so a form shows it where it is typed. */
export const fieldInvalid = (path: string, message: string) => Invalid(message, [{ path, message }]);
export const Unauthorized = (message = 'Authentication credentials were not provided.') => new AppError('unauthorized', message);
export const Forbidden = (message = 'Forbidden') => new AppError('forbidden', message);
export const NotFound = (message = 'Not found') => new AppError('not_found', message);
export const Conflict = (message: string) => new AppError('conflict', message);
export const TooLarge = (message: string) => new AppError('too_large', message);
export const Unprocessable = (message: string, extra?: Record<string, unknown>) => new AppError('unprocessable', message, undefined, extra);
/** A service we depend on cannot answer now; the request changed nothing and can be repeated later. */
export const Unavailable = (message: string) => new AppError('unavailable', message);
