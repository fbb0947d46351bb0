import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

/**
 * Tells the operator how to sign in as the first admin, on the first start only. A password the service made up is
 * written to a file only the service's own user may read, and the log names the file: a log is kept and shipped
 * where others read it, so it never holds the password.
 */
export function announceFirstAdmin(
  dataDir: string,
  logger: Logger,
  admin: { username: string; generatedPassword?: string } | null,
): string | null {
  if (!admin) return null;
  if (!admin.generatedPassword) {
    logger.info({ username: admin.username }, 'first admin created from ADMIN_USERNAME/ADMIN_PASSWORD');
    return null;
  }
  const file = path.join(dataDir, 'secrets', 'first-admin-password');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `username: ${admin.username}\npassword: ${admin.generatedPassword}\n`, { mode: 0o600 });
  logger.warn(
    { username: admin.username, file },
    `first admin created: username "${admin.username}", its password is in ${file} (readable by this user only); sign in, change the password, then delete the file`,
  );
  return file;
}
