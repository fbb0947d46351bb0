import { expect } from 'vitest';

/** Asserts a problem+json response with this status and returns its body. */
export async function expectProblem(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, type: 'about:blank' });
  expect(typeof body.detail).toBe('string');
  expect(body.message).toBe(body.detail);
  return body;
}

export const jsonBody = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
