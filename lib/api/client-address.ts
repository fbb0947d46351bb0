import type { Context } from 'hono';
import type { AppEnv } from './context';

/**
 * The header the service's own server (server/main.ts) sets on every request to the address it took the connection
 * from (or, with TRUST_PROXY, the address the proxy names); whatever a client sent under that name is replaced.
 */
export const CLIENT_ADDRESS_HEADER = 'x-rmb-client-address';

/** The caller's address for rate limits; 'unknown' when the request did not come through the server (tests). */
export const clientAddress = (c: Context<AppEnv>) => c.req.header(CLIENT_ADDRESS_HEADER) || 'unknown';
