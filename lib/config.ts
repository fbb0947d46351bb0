import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { trimEndOf } from '@/lib/values/text';

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
  /** sign-in with ORCID (OpenID Connect): the client registered at ORCID; without both, no ORCID button */
  ORCID_CLIENT_ID: optionalString,
  ORCID_CLIENT_SECRET: optionalString,
  /** ORCID's issuer, whose discovery document is {issuer}/.well-known/openid-configuration */
  ORCID_ISSUER: z
    .string()
    .url()
    .default('https://orcid.org')
    .transform((v) => trimEndOf(v, '/')),
  /** a person signing in with an ORCID iD no account has gets a new account (true) or is told to ask an admin (false) */
  SELF_REGISTRATION: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  ENA_WEBIN_URL: z.string().url().default('https://wwwdev.ebi.ac.uk/ena/submit'),
  ENA_USERNAME: optionalString,
  ENA_PASSWORD: optionalString,
  ENA_TAXONOMY_URL: z.string().url().default('https://www.ebi.ac.uk/ena/taxonomy/rest'),
  ENA_BROWSER_URL: z.string().url().default('https://www.ebi.ac.uk/ena/browser/api'),
  ENA_FTP_URL: z.string().url().default('ftp://webin2.ebi.ac.uk'),
  /** ENA's Webin-CLI jar: assemblies and barcodes reach ENA only through it (lib/repositories/webin-cli); unset: they wait */
  WEBIN_CLI_JAR: optionalString,
  /** the Java 17 (or later) runtime that runs WEBIN_CLI_JAR */
  JAVA: z.string().min(1).default('java'),
  /** the BioImage Archive's FTP upload area for specimen images (lib/images); unset: images wait */
  BIOIMAGE_FTP_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  BIOIMAGE_USERNAME: optionalString,
  BIOIMAGE_PASSWORD: optionalString,
  TOLID_URL: z.string().url().default('https://id.tol.sanger.ac.uk/api/v3'),
  TOLID_TOKEN: optionalString,
  /** the Local Contexts Hub's API: whether an ERGA sample's traditional-knowledge project is public yet */
  LOCAL_CONTEXTS_URL: z.string().url().default('https://localcontextshub.org/api/v1'),
  /** EBI's Ontology Lookup Service: study terms of type `ontology` are checked there (lib/repositories/ols.ts) */
  OLS_URL: z.string().url().default('https://www.ebi.ac.uk/ols4/api'),
  ZENODO_URL: z.string().url().default('https://sandbox.zenodo.org/api'),
  ZENODO_TOKEN: optionalString,
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().default('Research Metadata Broker <no-reply@localhost>'),
  /** days a sample waits for an approver before they are sent a digest of it (and at most one digest each this often); 0: none */
  REMINDER_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
  S3_ENDPOINT: optionalString,
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * MiB),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** a Prometheus scraper's bearer token for GET /api/metrics (admins may read it without); unset: admins only */
  METRICS_TOKEN: optionalString,
  /** behind a reverse proxy: the client's address is the last one its X-Forwarded-For names (for rate limits) */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
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
    baseUrl: trimEndOf(cfg.NEXTAUTH_URL ?? `http://localhost:${cfg.PORT}`, '/'),
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

/** The ORCID client, when both its settings are given: the provider is registered and the button shown only then. */
export function orcidClient(cfg: Config): { clientId: string; clientSecret: string; issuer: string } | null {
  if (!cfg.ORCID_CLIENT_ID || !cfg.ORCID_CLIENT_SECRET) return null;
  return { clientId: cfg.ORCID_CLIENT_ID, clientSecret: cfg.ORCID_CLIENT_SECRET, issuer: cfg.ORCID_ISSUER };
}

let cached: Config | undefined;

/** Every setting, read once from the environment. */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

export interface ServiceState {
  configured: boolean;
  /** what a missing setting means for users, or what is configured */
  detail: string;
}

/** Which external services the settings reach, said in words for /api/health and the admin dashboard. */
export function externalServices(cfg: Config): Record<'ena' | 'tolid' | 'zenodo' | 'mail', ServiceState> {
  const ena = Boolean(cfg.ENA_USERNAME && cfg.ENA_PASSWORD);
  return {
    ena: ena
      ? { configured: true, detail: `Webin account ${cfg.ENA_USERNAME} at ${cfg.ENA_WEBIN_URL}` }
      : {
          configured: false,
          detail: 'ENA_USERNAME and ENA_PASSWORD are not set: approved samples wait in awaiting_ena, and ENA submissions are refused.',
        },
    tolid: cfg.TOLID_TOKEN
      ? { configured: true, detail: `ToLID service at ${cfg.TOLID_URL}` }
      : { configured: false, detail: 'TOLID_TOKEN is not set: samples are registered at ENA without ToLIDs.' },
    zenodo: cfg.ZENODO_TOKEN
      ? { configured: true, detail: `Zenodo at ${cfg.ZENODO_URL}` }
      : { configured: false, detail: 'ZENODO_TOKEN is not set: Zenodo submissions are refused.' },
    mail: cfg.SMTP_URL
      ? { configured: true, detail: `email sent as ${cfg.MAIL_FROM}` }
      : { configured: false, detail: 'SMTP_URL is not set: no email is sent (each is still recorded).' },
  };
}
