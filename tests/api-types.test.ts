import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_PATHS_FILE, apiPathsSource } from '@/scripts/api-types';

/**
 * The portal's types of the API (lib/client/api-paths.ts) are written from the API's own OpenAPI document by
 * `npm run api:types`: a route changed without them would leave the portal typed against an API that is gone.
 */
describe('the API types of the portal', () => {
  it('are what the API document gives today', async () => {
    const fresh = await apiPathsSource();
    // compared as a whole, with the one thing to do said when they differ: a diff of a generated file says it less well
    expect(readFileSync(API_PATHS_FILE, 'utf8') === fresh, 'lib/client/api-paths.ts is out of date: run npm run api:types').toBe(true);
  }, 60_000);
});
