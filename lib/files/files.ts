import type { Logger } from 'pino';
import { createLocalStore } from './local';
import { createS3Store } from './s3';
import { type FileDeps, type FileStore, usesS3 } from './store';

/** The data files' storage the settings name: an S3-compatible bucket, or DATA_DIR/files. */
export const fileStore = (deps: FileDeps & { logger?: Logger }): FileStore =>
  usesS3(deps.config) ? createS3Store(deps.config, deps.logger) : createLocalStore(deps);
