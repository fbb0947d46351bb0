import type { NextRequest } from 'next/server';
import NextAuth from 'next-auth';
import { authOptionsFor } from '@/lib/server/auth-options';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Context = { params: Promise<{ nextauth: string[] }> };

// options per request: ORCID's answer reaching a signed-in browser links the iD to that account
const handler = (req: NextRequest, ctx: Context) => NextAuth(req, ctx, authOptionsFor(req.headers.get('cookie')));

export { handler as GET, handler as POST };
