/** Opens the database, applies migrations and creates the first admin when the server starts. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getRuntime } = await import('@/lib/server/runtime');
  await getRuntime();
}
