import path from 'node:path';
import type { WebinCliOptions } from './run';

/**
 * Webin-CLI as the settings give it (WEBIN_CLI_JAR, JAVA, the Webin account), on ENA's test service (`-test`) when
 * Webin's URL is its development one, as for Webin REST; `missing` names the setting that is not set. Each run gets
 * its own folder under `workRoot`.
 */
export type WebinCliSettings =
  | { ready: true; options: Omit<WebinCliOptions, 'workDir'>; workRoot: string }
  | { ready: false; missing: string };

export function webinCliSettings(cfg: {
  WEBIN_CLI_JAR?: string;
  JAVA: string;
  ENA_USERNAME?: string;
  ENA_PASSWORD?: string;
  ENA_WEBIN_URL: string;
  DATA_DIR: string;
}): WebinCliSettings {
  if (!cfg.WEBIN_CLI_JAR) return { ready: false, missing: 'WEBIN_CLI_JAR' };
  if (!cfg.ENA_USERNAME || !cfg.ENA_PASSWORD) return { ready: false, missing: 'ENA_USERNAME and ENA_PASSWORD' };
  return {
    ready: true,
    options: {
      java: cfg.JAVA,
      jar: cfg.WEBIN_CLI_JAR,
      username: cfg.ENA_USERNAME,
      password: cfg.ENA_PASSWORD,
      test: new URL(cfg.ENA_WEBIN_URL).hostname.startsWith('wwwdev'),
    },
    workRoot: path.resolve(cfg.DATA_DIR, 'webin-cli'),
  };
}
