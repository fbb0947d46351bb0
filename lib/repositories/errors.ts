/**
 * Failures talking to a public repository. They are not AppErrors: jobs catch them and decide between retrying
 * later (unavailable), giving up with the repository's message (http errors), or recovering (ENA "already exists").
 */
export type RepositoryService = 'ena' | 'zenodo' | 'taxonomy' | (string & {});

export class RepositoryError extends Error {
  constructor(
    readonly service: RepositoryService,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'RepositoryError';
  }
}

/** The repository answered with a status we do not accept (after retries, for 5xx). */
export class RepositoryHttpError extends RepositoryError {
  constructor(
    service: RepositoryService,
    readonly method: string,
    /** the URL without credentials or secret query values */
    readonly url: string,
    readonly status: number,
    /** the response body as text (repositories send short JSON or XML error bodies) */
    readonly body: string,
    message?: string,
  ) {
    super(service, message ?? `${service}: ${method} ${url} answered ${status}`);
    this.name = 'RepositoryHttpError';
  }

  /** A 5xx or 429 may succeed later; a 4xx will not. */
  get transient(): boolean {
    return this.status >= 500 || this.status === 429;
  }
}

/** No usable answer: network failure or timeout on every attempt. Always worth retrying later. */
export class RepositoryUnavailableError extends RepositoryError {
  constructor(
    service: RepositoryService,
    readonly method: string,
    readonly url: string,
    readonly attempts: number,
    readonly timedOut: boolean,
    cause: unknown,
  ) {
    super(
      service,
      `${service}: ${method} ${url} ${timedOut ? 'timed out' : 'failed'} after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
      { cause },
    );
    this.name = 'RepositoryUnavailableError';
  }

  readonly transient = true;
}

/** The repository answered 2xx but with a body we cannot read (an HTML error page, a truncated receipt). */
export class RepositoryProtocolError extends RepositoryError {
  constructor(
    service: RepositoryService,
    message: string,
    readonly body: string,
  ) {
    super(service, message);
    this.name = 'RepositoryProtocolError';
  }
}

/** An outage worth waiting out (no answer, 5xx, 429), as opposed to the repository's refusal. */
export const isTransient = (err: unknown): err is RepositoryError =>
  err instanceof RepositoryError && 'transient' in err && (err as RepositoryError & { transient: boolean }).transient === true;

/**
 * The repository understood the request and refused it for good (ENA's receipt with errors, an answer without the
 * accessions it should carry): the work ends rejected with this message, and sending the same again will not help.
 * Also what the broker's own checks raise for a document the repository would refuse (a read file that is missing).
 */
export class RepositoryRefused extends RepositoryError {
  readonly transient = false;
  constructor(
    service: RepositoryService,
    message: string,
    /** the repository's own messages, each as it gave it (ENA's receipt: one per problem, naming the object) */
    readonly messages: readonly string[] = [message],
  ) {
    super(service, message);
    this.name = 'RepositoryRefused';
  }
}
