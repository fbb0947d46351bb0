// npm run user:create -- --username U --password P [--email E] [--admin] [--member dtol,erga] [--manager erga] [--approver BGE,ERGA_COMMUNITY]
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openDatabase } from '@/db/client';
import { TOL_PROJECTS } from '@/db/schema';
import { config } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { createUser } from '@/lib/users/users';

const usage =
  'usage: npm run user:create -- --username U --password P [--email E] [--admin] [--member dtol,erga] [--manager erga] [--approver BGE,ERGA_COMMUNITY]';

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const projects = (value: string | undefined) => z.array(z.enum(TOL_PROJECTS)).parse(list(value).map((s) => s.toLowerCase()));
// checked by createUser against the associated types that need approval
const approverTypes = (value: string | undefined) => list(value).map((s) => s.toUpperCase());

async function main() {
  const { values } = parseArgs({
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string', default: '' },
      admin: { type: 'boolean', default: false },
      member: { type: 'string' },
      manager: { type: 'string' },
      approver: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.username || !values.password) {
    console.error(usage);
    process.exit(values.help ? 0 : 2);
  }
  const cfg = config();
  const database = await openDatabase({
    url: cfg.DATABASE_URL,
    pgliteDir: cfg.DATABASE_URL ? undefined : path.join(cfg.dataDir, 'pglite'),
    max: 1,
  });
  try {
    const user = await createUser(database.db, {
      username: values.username,
      password: values.password,
      email: values.email,
      isAdmin: values.admin,
      memberOf: projects(values.member),
      managerOf: projects(values.manager),
      approverOf: approverTypes(values.approver),
    });
    console.log(
      `created user ${user.username} (id ${user.id})${user.isAdmin ? ', admin' : ''}` +
        `; member of: ${user.memberOf.join(', ') || 'none'}; sample manager of: ${user.managerOf.join(', ') || 'none'}` +
        `; approver of: ${user.approverOf.join(', ') || 'none'}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  if (err instanceof z.ZodError) console.error(`error: ${err.issues.map((i) => i.message).join('; ')}`);
  else if (err instanceof AppError) console.error(`error: ${err.message}`);
  else console.error(err);
  process.exit(1);
});
