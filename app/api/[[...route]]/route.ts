import { getRuntime } from '@/lib/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

async function dispatch(request: Request): Promise<Response> {
  const { api } = await getRuntime();
  return api.fetch(request);
}

export { dispatch as GET, dispatch as POST, dispatch as PUT, dispatch as PATCH, dispatch as DELETE, dispatch as HEAD, dispatch as OPTIONS };
