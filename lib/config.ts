import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const MiB = 1024 * 1024;
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: optionalString,
  NEXTAUTH_SECRET: optionalString,
  NEXTAUTH_URL: optionalString,
  ADMIN_USERNAME: optionalString,
  ADMIN_PASSWORD: optionalString,
  ENA_WEBIN_URL: z.string().url().default('https://wwwdev.ebi.ac.uk/ena/submit'),
  ENA_USERNAME: optionalString,
  ENA_PASSWORD: optionalString,
  ENA_TAXONOMY_URL: z.string().url().default('https://www.ebi.ac.uk/ena/taxonomy/rest'),
  ZENODO_URL: z.string().url().default('https://sandbox.zenodo.org/api'),
  ZENODO_TOKEN: optionalString,
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(100 * MiB),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof ConfigSchema> & {
  /** absolute DATA_DIR */
  dataDir: string;
  /** NEXTAUTH_SECRET from the environment, or generated once and kept in DATA_DIR */
  authSecret: string;
  /** public base URL of this instance */
  baseUrl: string;
};

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const dataDir = path.resolve(cfg.DATA_DIR);
  return {
    ...cfg,
    dataDir,
    authSecret: cfg.NEXTAUTH_SECRET ?? loadOrCreateSecret(dataDir, 'nextauth-secret'),
    baseUrl: (cfg.NEXTAUTH_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, ''),
  };
}

/** Secrets that must survive restarts but need no operator: written once under DATA_DIR. */
function loadOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // another process won the race: use its secret
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

let cached: Config | undefined;

/** Every setting, read once from the environment. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}
