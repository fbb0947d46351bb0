import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { profiles } from '@/db/schema';
import { PROFILE_TITLE_TTL_MS, profileTitleCache } from '@/lib/query/profile-titles';
import { type QuerySeed, seedQueryData } from './query-seed';
import { queryClient } from './query-support';
import { createHarness, type Harness } from './support/harness';

// The profile titles the query API prints beside each sample come from those the process has read lately
// (lib/query/profile-titles.ts): a rename through the API shows at once, one made elsewhere within the cache's lifetime.

let h: Harness;
let seed: QuerySeed;
let owner: { key: string };
const { wrapper, csv } = queryClient(() => h);

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
  const made = await h.user({ memberOf: ['dtol'] });
  owner = { key: made.key };
  await h.deps.db.update(profiles).set({ ownerId: made.user.id }).where(eq(profiles.id, seed.profiles.nhm));
});
afterAll(() => h.close());
afterEach(() => {
  vi.useRealTimers();
});

const nhmSample = () => seed.samples.find((s) => s.manifestId === seed.manifests.dtol)!;
const titleOf = async (path: string) => (await wrapper(path)).data.map((r) => r.svc_profile_title);

const rename = async (title: string) => {
  const res = await h.request(`/api/profiles/${seed.profiles.nhm}`, {
    method: 'PUT',
    key: owner.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'dtol', title }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
};

describe('profile titles in sample records', () => {
  it('shows a rename made through the API at once: a one-sample look-up, a list, a CSV export', async () => {
    const sample = nhmSample();
    const lookUp = `/api/sample/svc_id/${sample.id}`;
    const list = `/api/manifest/${sample.manifestId}`;
    expect(await titleOf(lookUp)).toEqual(['NHM Lepidoptera 2024']);
    expect(new Set(await titleOf(list))).toEqual(new Set(['NHM Lepidoptera 2024']));

    await rename('Wytham moths, renamed');
    expect(await titleOf(lookUp)).toEqual(['Wytham moths, renamed']);
    expect(new Set(await titleOf(list))).toEqual(new Set(['Wytham moths, renamed']));
    const { rows } = await csv(`${lookUp}?return_type=csv`);
    expect(rows.map((r) => r.svc_profile_title)).toEqual(['Wytham moths, renamed']);

    await rename('NHM Lepidoptera 2024');
    expect(await titleOf(lookUp)).toEqual(['NHM Lepidoptera 2024']);
  });

  it('shows a title changed by another process once the one read here is older than PROFILE_TITLE_TTL_MS', async () => {
    const lookUp = `/api/sample/svc_id/${nhmSample().id}`;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    expect(await titleOf(lookUp)).toEqual(['NHM Lepidoptera 2024']);
    // as another process of the service would: straight to the database, this process's cache untold
    await h.deps.db.update(profiles).set({ title: 'Changed elsewhere' }).where(eq(profiles.id, seed.profiles.nhm));
    expect(await titleOf(lookUp)).toEqual(['NHM Lepidoptera 2024']);
    vi.setSystemTime(Date.now() + PROFILE_TITLE_TTL_MS + 1);
    expect(await titleOf(lookUp)).toEqual(['Changed elsewhere']);
    await h.deps.db.update(profiles).set({ title: 'NHM Lepidoptera 2024' }).where(eq(profiles.id, seed.profiles.nhm));
    vi.setSystemTime(Date.now() + PROFILE_TITLE_TTL_MS + 1);
    expect(await titleOf(lookUp)).toEqual(['NHM Lepidoptera 2024']);
  });

  it('does not keep what a read found when a rename committed while it ran', () => {
    const cache = profileTitleCache(h.deps.db);
    const id = 'ab0000000000000000000001';
    const before = cache.mark();
    cache.forget(id);
    cache.keep(before, [[id, 'the old title']]);
    expect(cache.get(id)).toBeUndefined();
    cache.keep(cache.mark(), [[id, 'the new title']]);
    expect(cache.get(id)).toBe('the new title');
    cache.forget(id);
    expect(cache.get(id)).toBeUndefined();
  });
});
