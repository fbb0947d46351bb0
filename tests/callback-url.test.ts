import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeCallback, signInPath } from '@/components/auth/callback-url';

/** Where signing in leads: only a page of this site, however the address is spelt (e2e/security.spec.ts in a browser). */

const ORIGIN = 'https://broker.example.org';

describe('the page after signing in', () => {
  it.each([
    ['/samples?q=Lepidoptera#top', '/samples?q=Lepidoptera#top'],
    ['/manifests/review', '/manifests/review'],
    [`${ORIGIN}/profiles`, '/profiles'],
    ['profiles', '/profiles'],
    ['/%09/evil.example', '/%09/evil.example'],
    // a path a browser would read as another host's is made one of this site's
    ['/.//evil.example', '/evil.example'],
  ])('keeps a page of this site: %s', (value, page) => {
    expect(safeCallback(value, ORIGIN)).toBe(page);
  });

  it.each([
    '/\\evil.example',
    '/\t/evil.example',
    '//evil.example',
    '///evil.example',
    'https://evil.example/',
    'https://broker.example.org.evil.example/',
    'http://broker.example.org/',
    'javascript:alert(1)',
    '\\\\evil.example',
    ' //evil.example',
  ])('refuses another site for the home page: %j', (value) => {
    expect(safeCallback(value, ORIGIN)).toBe('/');
  });

  it('never leads off the site, whatever the address', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.webPath()), (value) => {
        const page = safeCallback(value, ORIGIN);
        expect(page.startsWith('/')).toBe(true);
        expect(new URL(page, ORIGIN).origin).toBe(ORIGIN);
      }),
      { numRuns: 2000 },
    );
  });

  it('is named in the sign-in page’s address', () => {
    expect(signInPath('/samples?q=a&b=c')).toBe('/signin?callbackUrl=%2Fsamples%3Fq%3Da%26b%3Dc');
    expect(signInPath('/')).toBe('/signin');
    expect(signInPath(null)).toBe('/signin');
  });
});
