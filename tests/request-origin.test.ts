import { describe, expect, it } from 'vitest';
import { originOf } from '@/lib/server/request-origin';

/** The address a page shows in its examples is the one the person reached it at, not the configured NEXTAUTH_URL. */

const CONFIGURED = 'http://localhost:3999';
const origin = (headers: Record<string, string>, fallback = CONFIGURED) => originOf(new Headers(headers), fallback);

describe('originOf', () => {
  it('takes the Host the browser sent, with its port', () => {
    expect(origin({ host: 'broker.lab.example.org:8080' })).toBe('http://broker.lab.example.org:8080');
    expect(origin({ host: '127.0.0.1:3210' })).toBe('http://127.0.0.1:3210');
    expect(origin({ host: '[::1]:3210' })).toBe('http://[::1]:3210');
  });

  it('prefers what a proxy forwards, first hop first', () => {
    expect(origin({ host: 'localhost:3000', 'x-forwarded-host': 'broker.example.org', 'x-forwarded-proto': 'https' })).toBe(
      'https://broker.example.org',
    );
    expect(origin({ host: 'localhost:3000', 'x-forwarded-host': 'a.example.org, b.internal', 'x-forwarded-proto': 'https,http' })).toBe(
      'https://a.example.org',
    );
  });

  it('keeps the configured protocol for the configured host, and plain http for another', () => {
    expect(origin({ host: 'broker.example.org' }, 'https://broker.example.org')).toBe('https://broker.example.org');
    expect(origin({ host: 'other.example.org' }, 'https://broker.example.org')).toBe('http://other.example.org');
  });

  it('falls back to the configured address when no header names a host it can show', () => {
    expect(origin({})).toBe(CONFIGURED);
    expect(origin({ host: 'evil.example.org/<script>' })).toBe(CONFIGURED);
    expect(origin({ host: 'broker.example.org', 'x-forwarded-host': 'a b' })).toBe('http://broker.example.org');
    expect(origin({ host: 'broker.example.org', 'x-forwarded-proto': 'gopher' })).toBe('http://broker.example.org');
  });
});
