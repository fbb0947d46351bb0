import type { Logger } from 'pino';
import { createUploadArea, type UploadArea, type UploadAreaOptions } from './ena/upload-area';

/**
 * The BioImage Archive's upload area for specimen images: FTP, as ENA's Webin area (the same client,
 * lib/repositories/ena/upload-area.ts), with the account the archive gave the service.
 */

export interface BioimageSettings {
  BIOIMAGE_FTP_URL?: string;
  BIOIMAGE_USERNAME?: string;
  BIOIMAGE_PASSWORD?: string;
}

const SETTINGS = ['BIOIMAGE_FTP_URL', 'BIOIMAGE_USERNAME', 'BIOIMAGE_PASSWORD'] as const;

/** The settings still to set before images can be sent: none when the upload area is configured. */
export const missingBioimageSettings = (config: BioimageSettings): string[] => SETTINGS.filter((s) => !config[s]);

/** The upload area the settings name, or null while one of them is unset (images then wait). */
export function bioimageAreaFromConfig(
  config: BioimageSettings,
  logger: Logger,
  extra: Partial<UploadAreaOptions> = {},
): UploadArea | null {
  const { BIOIMAGE_FTP_URL: url, BIOIMAGE_USERNAME: username, BIOIMAGE_PASSWORD: password } = config;
  if (!url || !username || !password) return null;
  return createUploadArea({
    url,
    username,
    password,
    logger,
    area: { service: 'bioimage', name: 'The BioImage Archive upload area', setting: 'BIOIMAGE_FTP_URL' },
    ...extra,
  });
}
