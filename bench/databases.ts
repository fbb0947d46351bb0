import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** The URL of the database `name` on the PostgreSQL server at `server`. */
export const withDatabase = (server: string, name: string) => {
  const u = new URL(server);
  u.pathname = `/${name}`;
  return u.toString();
};

async function onServer(serverUrl: string, statement: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(statement);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own for one run of a benchmark, created on the PostgreSQL server at `serverUrl` under a random
 * name starting with `prefix`: its URL, and its drop for when the run ends.
 */
export async function scratchDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}${randomBytes(4).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  return { url: withDatabase(serverUrl, name), drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`) };
}
