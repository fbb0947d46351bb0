import type { Logger } from 'pino';
import { Conflict } from '@/lib/errors';
import type { EnaClientOptions } from './client';

/**
 * Client options from the service settings. Without a Webin account nothing can be submitted: that is the 409
 * the API answers, naming the missing setting.
 */
export function enaClientOptionsFromConfig(
  config: { ENA_WEBIN_URL: string; ENA_USERNAME?: string; ENA_PASSWORD?: string },
  logger: Logger,
  extra: Partial<EnaClientOptions> = {},
): EnaClientOptions {
  const missing = [config.ENA_USERNAME ? undefined : 'ENA_USERNAME', config.ENA_PASSWORD ? undefined : 'ENA_PASSWORD'].filter(
    (m): m is string => m !== undefined,
  );
  if (missing.length) throw Conflict(`ENA submission is not configured: set ${missing.join(' and ')}.`);
  return {
    baseUrl: config.ENA_WEBIN_URL,
    username: config.ENA_USERNAME as string,
    password: config.ENA_PASSWORD as string,
    logger,
    ...extra,
  };
}
