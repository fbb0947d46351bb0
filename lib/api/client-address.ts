import type { Context } from 'hono';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import type { AppEnv } from './context';

/** The caller's address for rate limits; 'unknown' when the request did not come through the server (tests). */
export const clientAddress = (c: Context<AppEnv>) => c.req.header(CLIENT_ADDRESS_HEADER) || 'unknown';
