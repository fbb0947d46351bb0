import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, samples } from '@/db/schema';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type MailServer, startMailServer } from './support/repository-server/smtp';

/**
 * Managers hear of new work and uploaders of what happened to theirs (docs/tol-manifests.md §3.2), by email sent by a
 * job, never inside the request, each recorded with whether it was delivered.
 */

let smtp: MailServer;
let h: Harness;
let uploader: Awaited<ReturnType<Harness['user']>>;
let managers: Awaited<ReturnType<Harness['user']>>[];
let profileId: string;
let offset = 500;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  smtp = await startMailServer();
  h = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Broker <broker@example.org>' }, { workers: true, taxonomy: fakeTaxonomy() });
  uploader = await h.user({ email: 'uploader@example.org', memberOf: ['dtol'] });
  managers = [
    await h.user({ email: 'first.manager@example.org', memberOf: ['dtol'], managerOf: ['dtol'] }),
    await h.user({ email: 'second.manager@example.org', managerOf: ['dtol'] }),
  ];
  // a manager of another project, and an inactive DTOL manager: neither hears of DTOL manifests
  await h.user({ email: 'erga.manager@example.org', managerOf: ['erga'] });
  const away = await h.user({ email: 'away.manager@example.org', managerOf: ['dtol'] });
  await h.request(`/api/admin/users/${away.user.id}`, {
    method: 'PATCH',
    headers: json,
    body: JSON.stringify({ is_active: false }),
    key: (await h.user({ isAdmin: true })).key,
  });
  profileId = await createProfile(h, uploader.key, { title: 'Hedgerow moths', description: '', type: 'dtol' });
}, 120_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});
beforeEach(() => smtp.received.splice(0));

async function confirmedSamples(n: number): Promise<{ manifestId: string; ids: string[] }> {
  const rows = dtolRows(n, offset);
  offset += n;
  const { manifest_id } = await uploadManifest(h, uploader.key, profileId, rows);
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  return { manifestId: manifest_id, ids };
}

const mailTo = (address: string, count = 1) =>
  waitFor(
    async () => smtp.received.filter((m) => m.to.includes(address)),
    (list) => list.length >= count,
    `email to ${address}`,
  );

describe('email', () => {
  it('tells each active manager of the project, once and separately, of a confirmed manifest', async () => {
    const { manifestId } = await confirmedSamples(2);
    for (const m of managers) {
      const [mail] = await mailTo(m.user.email);
      expect(mail!.to).toEqual([m.user.email]);
      expect(mail!.from).toBe('broker@example.org');
      expect(mail!.subject).toBe(`[DTOL] 2 new samples from ${uploader.user.username} await review`);
      expect(mail!.text).toContain('/manifests/review');
      expect(mail!.text).toContain(manifestId);
    }
    // give any stray email a moment to arrive: there must be exactly one per manager and none to others
    await new Promise((r) => setTimeout(r, 1500));
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(managers.map((m) => m.user.email).sort());
    const recorded = await h.database.db.select().from(emails).where(eq(emails.manifestId, manifestId));
    expect(recorded).toHaveLength(2);
    for (const e of recorded) {
      expect(e).toMatchObject({ kind: 'manifest_confirmed', status: 'sent' });
      expect(e.result).toMatch(/@/);
      expect(e.sentAt).toBeInstanceOf(Date);
    }
  });

  it('tells the uploader of acceptance, and of rejection with the reason', async () => {
    const { ids } = await confirmedSamples(2);
    await mailTo(managers[0]!.user.email);
    const decide = (body: unknown) =>
      h.request('/api/sample/decision', { method: 'POST', key: managers[0]!.key, headers: json, body: JSON.stringify(body) });
    expect((await decide({ svc_ids: [ids[0]], decision: 'accept' })).status).toBe(200);
    expect((await decide({ svc_ids: [ids[1]], decision: 'reject', reason: 'The tube label is unreadable.' })).status).toBe(200);
    const mails = await mailTo(uploader.user.email, 2);
    const accepted = mails.find((m) => m.subject === '[DTOL] 1 sample accepted')!;
    expect(accepted.text).toContain(ids[0]);
    expect(accepted.text).toContain(`${managers[0]!.user.username} accepted 1 sample`);
    const rejected = mails.find((m) => m.subject === '[DTOL] 1 sample rejected')!;
    expect(rejected.text).toContain('Reason: The tube label is unreadable.');
    expect(rejected.text).toContain(ids[1]);
  });

  it('tells each manager of an updated manifest: how many samples changed and need their review again', async () => {
    const rows = dtolRows(2, offset);
    offset += 2;
    const { manifest_id } = await uploadManifest(h, uploader.key, profileId, rows);
    for (const m of managers) await mailTo(m.user.email);
    smtp.received.splice(0);
    const changed = rows.map((r) => ({ ...r }));
    changed[1]!.IDENTIFIED_BY = 'Richard Lewington';
    const again = await uploadManifest(h, uploader.key, profileId, changed);
    expect(again).toMatchObject({ manifest_id, created: 0, updated: 1 });
    for (const m of managers) {
      const [mail] = await mailTo(m.user.email);
      expect(mail!.subject).toBe(`[DTOL] 1 sample updated by ${uploader.user.username} await review`);
      expect(mail!.text).toContain('1 sample changed and needs your review again.');
    }
    const recorded = await h.database.db.select().from(emails).where(eq(emails.kind, 'manifest_updated'));
    expect(recorded.filter((e) => e.manifestId === manifest_id)).toHaveLength(managers.length);
  });

  it('says, on acceptance, that the samples go on to ENA', async () => {
    const { ids } = await confirmedSamples(2);
    await mailTo(managers[0]!.user.email);
    const res = await h.request('/api/sample/decision', {
      method: 'POST',
      key: managers[0]!.key,
      headers: json,
      body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
    });
    expect(res.status).toBe(200);
    const [mail] = await mailTo(uploader.user.email);
    expect(mail!.subject).toBe('[DTOL] 2 samples accepted');
    expect(mail!.text).toContain('They are on their way to ENA.');
  });

  it('records a refused message as failed with the SMTP error, and the request is unaffected', async () => {
    smtp.refuse(10, 550);
    const { manifestId } = await confirmedSamples(1);
    const recorded = await waitFor(
      () => h.database.db.select().from(emails).where(eq(emails.manifestId, manifestId)),
      (rows) => rows.length === 2 && rows.every((r) => r.status === 'failed'),
      'the failures to be recorded',
    );
    expect(recorded[0]!.result).toMatch(/Mailbox unavailable/);
    smtp.refuse(0, 0);
  });
});

describe('without SMTP_URL', () => {
  it('sends nothing, fails nothing, and records each email as not sent', async () => {
    const bare = await createHarness({}, { workers: true, taxonomy: fakeTaxonomy() });
    try {
      const u = await bare.user({ email: 'someone@example.org', memberOf: ['dtol'], managerOf: ['dtol'] });
      const profile = await createProfile(bare, u.key, { title: 'No mail', description: '', type: 'dtol' });
      const { manifest_id } = await uploadManifest(bare, u.key, profile, dtolRows(1, 900));
      const ids = (await bare.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map(
        (r) => r.id,
      );
      const res = await bare.request('/api/sample/decision', {
        method: 'POST',
        key: u.key,
        headers: json,
        body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
      });
      expect(res.status).toBe(200);
      const recorded = await bare.database.db
        .select()
        .from(emails)
        .where(inArray(emails.kind, ['manifest_confirmed', 'samples_accepted']));
      expect(recorded.map((e) => e.kind).sort()).toEqual(['manifest_confirmed', 'samples_accepted']);
      for (const e of recorded) expect(e).toMatchObject({ status: 'not_sent', result: 'SMTP_URL is not set: no email is sent.' });
      expect(smtp.received).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
