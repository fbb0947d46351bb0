import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import { samplesWaiting } from '@/lib/samples/home';
import type { ReviewQueue } from '@/lib/samples/review-contract';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * The review queue starts with the new (issue 61): the manifest a manager was told about last comes first, its samples
 * in the spreadsheet's row order; `sort=oldest` turns it round; `profile`, `uploader` and `manifest` narrow it while
 * `choices` still offers every profile and uploader; the decided list follows the same parameters; the home page and
 * the email telling a manager that samples wait lead to the manifest's own group.
 */

let h: Harness;
type User = Awaited<ReturnType<Harness['user']>>;
let alice: User;
let bob: User;
let manager: User;
let moths: string;
let beetles: string;
/** in the order they were confirmed: alice's, bob's, alice's again */
let m1: string;
let m2: string;
let m3: string;
/** bob's rows, in the order of his spreadsheet */
let bobsTubes: string[];
const json = { 'content-type': 'application/json' };

const queue = async (query = '', key = manager.key) => {
  const res = await h.request(`/api/sample/review${query}`, { key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ReviewQueue;
};
const order = (q: ReviewQueue) => q.data.map((g) => g.manifest_id);

beforeAll(async () => {
  h = await createHarness({}, { taxonomy: fakeTaxonomy() });
  alice = await h.user({ username: 'alice-collects', memberOf: ['dtol'] });
  bob = await h.user({ username: 'bob-collects', memberOf: ['dtol'] });
  manager = await h.user({ username: 'queue-curator', email: 'curator@example.org', memberOf: ['dtol'], managerOf: ['dtol'] });
  moths = await createProfile(h, alice.key, { title: 'Queue moths', description: '', type: 'dtol' });
  beetles = await createProfile(h, bob.key, { title: 'Queue beetles', description: '', type: 'dtol' });
  m1 = (await uploadManifest(h, alice.key, moths, dtolRows(2), { validateHere: true })).manifest_id;
  // reversed: neither the tubes' names nor the random svc_ids give the spreadsheet's order by chance
  const rows = dtolRows(4, 2).reverse();
  bobsTubes = rows.map((r) => r.TUBE_OR_WELL_ID ?? '');
  m2 = (await uploadManifest(h, bob.key, beetles, rows, { validateHere: true })).manifest_id;
  m3 = (await uploadManifest(h, alice.key, moths, dtolRows(1, 6), { validateHere: true })).manifest_id;
}, 180_000);
afterAll(async () => {
  await h?.close();
});

describe('the awaiting list', () => {
  it('starts with the manifest confirmed last, each manifest’s samples in its spreadsheet’s order', async () => {
    const q = await queue();
    expect(q).toMatchObject({ state: 'awaiting', sort: 'newest', number_found: 3, samples_found: 7 });
    expect(order(q)).toEqual([m3, m2, m1]);
    expect(q.data[1]!.samples.map((s) => s.TUBE_OR_WELL_ID)).toEqual(bobsTubes);
    expect(q.choices).toEqual({
      profiles: [
        { profile_id: beetles, profile_title: 'Queue beetles' },
        { profile_id: moths, profile_title: 'Queue moths' },
      ],
      uploaders: ['alice-collects', 'bob-collects'],
    });
  });

  it('turns round with sort=oldest, and pages in either order', async () => {
    expect(order(await queue('?sort=oldest'))).toEqual([m1, m2, m3]);
    expect(order(await queue('?sort=oldest&limit=1&offset=1'))).toEqual([m2]);
    expect(order(await queue('?sort=newest&limit=2&offset=1'))).toEqual([m2, m1]);
    // the order of a manifest's samples is its spreadsheet's whichever way the manifests go
    const oldest = await queue('?sort=oldest');
    expect(oldest.data[1]!.samples.map((s) => s.TUBE_OR_WELL_ID)).toEqual(bobsTubes);
  });

  it('narrows by profile, by uploader and to one manifest, still offering every profile and uploader', async () => {
    const byProfile = await queue(`?profile=${moths}`);
    expect(byProfile).toMatchObject({ number_found: 2, samples_found: 3 });
    expect(order(byProfile)).toEqual([m3, m1]);
    expect(byProfile.choices.profiles.map((p) => p.profile_id)).toEqual([beetles, moths]);
    expect(order(await queue(`?profile=${moths}&sort=oldest`))).toEqual([m1, m3]);

    const byUploader = await queue('?uploader=bob-collects');
    expect(byUploader).toMatchObject({ number_found: 1, samples_found: 4 });
    expect(order(byUploader)).toEqual([m2]);
    const nobody = await queue('?uploader=nobody-at-all');
    expect(nobody).toMatchObject({ number_found: 0, samples_found: 0, data: [] });
    expect(nobody.choices.uploaders).toEqual(['alice-collects', 'bob-collects']);

    const one = await queue(`?manifest=${m1}`);
    expect(order(one)).toEqual([m1]);
    expect(one.samples_found).toBe(2);
    // the filters add up: bob's manifest is not in alice's profile
    expect((await queue(`?manifest=${m2}&profile=${moths}`)).number_found).toBe(0);
    expect(order(await queue(`?uploader=alice-collects&profile=${moths}`))).toEqual([m3, m1]);
  });

  it('describes the first `rows` samples of each manifest and names them all', async () => {
    const whole = (await queue(`?manifest=${m2}`)).data[0]!;
    const page = await queue('?rows=2');
    expect(page).toMatchObject({ number_found: 3, samples_found: 7 });
    const bobs = page.data[1]!;
    expect(bobs).toMatchObject({
      manifest_id: m2,
      samples_found: 4,
      manifest_samples: 4,
      statuses: [{ status: 'pending', samples: 4 }],
      failed_ids: [],
    });
    // the first two in the spreadsheet's order, described as the whole list describes them
    expect(bobs.samples).toEqual(whole.samples.slice(0, 2));
    expect(bobs.svc_ids).toEqual(whole.samples.map((s) => s.svc_id));
    expect(whole).toMatchObject({ samples_found: 4, svc_ids: bobs.svc_ids });
    // a manifest of fewer rows is described whole
    expect(page.data[2]!.samples.map((s) => s.svc_id)).toEqual(page.data[2]!.svc_ids);
    for (const bad of ['0', '1001', 'two']) {
      const res = await h.request(`/api/sample/review?rows=${bad}`, { key: manager.key });
      expect(res.status, bad).toBe(400);
      expect(await res.text(), bad).toContain('rows');
    }
  });

  it('refuses a parameter it does not know the shape of, saying which', async () => {
    for (const [query, field] of [
      ['?sort=random', 'sort'],
      ['?manifest=latest', 'manifest'],
      ['?profile=moths', 'profile'],
      ['?uploader=two%20words', 'uploader'],
    ] as const) {
      const res = await h.request(`/api/sample/review${query}`, { key: manager.key });
      expect(res.status, query).toBe(400);
      expect(await res.text(), query).toContain(field);
    }
  });

  it('names the waiting manifests on the home page, newest first, each leading to its group', async () => {
    const waiting = await samplesWaiting(h.database.db, manager.user, new Date(Date.now() - 3600_000));
    expect(waiting.awaiting).toBe(7);
    expect(waiting.toReview.total).toBe(3);
    expect(waiting.toReview.rows).toEqual([
      { manifestId: m3, fileName: 'manifest.xlsx', profileTitle: 'Queue moths', samples: 1 },
      { manifestId: m2, fileName: 'manifest.xlsx', profileTitle: 'Queue beetles', samples: 4 },
      { manifestId: m1, fileName: 'manifest.xlsx', profileTitle: 'Queue moths', samples: 2 },
    ]);
    // who reviews nothing is named nothing
    expect((await samplesWaiting(h.database.db, alice.user, new Date())).toReview).toEqual({ rows: [], total: 0 });
  });

  it('links the email telling the manager that samples wait to the manifest’s group', async () => {
    for (const id of [m1, m2, m3]) {
      const [mail] = await h.database.db
        .select({ body: emails.body })
        .from(emails)
        .where(and(eq(emails.manifestId, id), eq(emails.kind, 'manifest_confirmed')));
      expect(mail?.body).toContain(`/manifests/review?manifest=${id}`);
    }
  });
});

describe('the decided list', () => {
  it('follows the same order and filters: the latest decision first, or the earliest', async () => {
    const reject = async (manifestId: string) => {
      const ids = (await queue(`?manifest=${manifestId}`)).data[0]!.samples.map((s) => s.svc_id);
      const res = await h.request('/api/sample/decision', {
        method: 'POST',
        key: manager.key,
        headers: json,
        body: JSON.stringify({ svc_ids: ids, decision: 'reject', reason: 'Not for this queue' }),
      });
      expect(res.status).toBe(200);
    };
    await reject(m2);
    await new Promise((r) => setTimeout(r, 20));
    await reject(m1);

    expect(order(await queue('?state=decided'))).toEqual([m1, m2]);
    expect(order(await queue('?state=decided&sort=oldest'))).toEqual([m2, m1]);
    const bobs = await queue('?state=decided&uploader=bob-collects');
    expect(order(bobs)).toEqual([m2]);
    expect(bobs.samples_found).toBe(4);
    expect(bobs.data[0]!.statuses).toEqual([{ status: 'rejected', samples: 4 }]);
    expect(bobs.choices.uploaders).toEqual(['alice-collects', 'bob-collects']);
    expect(order(await queue(`?state=decided&profile=${moths}`))).toEqual([m1]);
    expect(order(await queue(`?state=decided&manifest=${m2}`))).toEqual([m2]);
    // decided samples keep their spreadsheet's order too
    expect((await queue(`?state=decided&manifest=${m2}`)).data[0]!.samples.map((s) => s.TUBE_OR_WELL_ID)).toEqual(bobsTubes);
    // only alice's latest manifest still waits
    expect(order(await queue())).toEqual([m3]);
  });
});
