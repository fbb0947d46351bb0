import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { associatedTypes, emails, samples, sequencingCentres } from '@/db/schema';
import { ACCEPTANCE_DEFAULTS, MTA_LINK_STAND_IN, SHIPPING_LINK_STAND_IN } from '@/lib/mail/acceptance-defaults';
import type { AcceptancePreview } from '@/lib/mail/contract';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type MailServer, startMailServer } from './support/repository-server/smtp';

/**
 * The acceptance email says what to do next (issue 59): the text an admin keeps for each associated type, filled
 * for the accepted samples, as plain text and HTML, with the profile's sequencing centres' contacts in copy; a text
 * naming an unknown placeholder is refused, and nothing in a text or a profile's title makes the HTML run anything.
 */

type User = Awaited<ReturnType<Harness['user']>>;
let smtp: MailServer;
let h: Harness;
let uploader: User;
let bgeApprover: User;
let admin: User;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };
const CONTACT = { name: 'Rosa Recepción', email: 'reception@cnag.example.org', role: 'sample reception' };

beforeAll(async () => {
  smtp = await startMailServer();
  // no workers: each email is sent by running its job here, so that nothing else (a ToLID, ENA) gets in the way
  h = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Broker <broker@example.org>' }, { taxonomy: fakeTaxonomy() });
  uploader = await h.user({ username: 'moss-collector', email: 'collector@example.org', memberOf: ['erga'] });
  bgeApprover = await h.user({ username: 'bge-approver', email: 'bge@example.org', approverOf: ['BGE'] });
  admin = await h.user({ isAdmin: true });
  await h.database.db
    .update(sequencingCentres)
    .set({ contacts: [CONTACT] })
    .where(eq(sequencingCentres.name, 'CNAG'));
  profileId = await createProfile(h, uploader.key, {
    title: 'Pyrenean mosses',
    description: '',
    type: 'erga',
    associated_type: ['BGE'],
    sequencing_centre: ['CNAG'],
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});
beforeEach(() => smtp.received.splice(0));

/** ERGA rows that name no permit, so the manifest confirms without PDFs. */
function ergaRows(n: number) {
  const rows = validRows(currentDefinition('erga'), n + offset)
    .slice(offset)
    .map((r) => ({
      ...r,
      SAMPLING_PERMITS_REQUIRED: 'N',
      SAMPLING_PERMITS_DEF: 'NOT_APPLICABLE',
      SAMPLING_PERMITS_FILENAME: 'NOT_APPLICABLE',
    }));
  offset += n;
  return rows;
}

/** Confirms a manifest of n samples on the profile, has the BGE approver accept them, and sends the acceptance email. */
async function acceptedEmail(n: number, profile = profileId) {
  const { manifest_id } = await uploadManifest(h, uploader.key, profile, ergaRows(n), { validateHere: true });
  const stored = await h.database.db.select().from(samples).where(eq(samples.manifestId, manifest_id)).orderBy(samples.tubeOrWellId);
  const ids = stored.map((s) => s.id);
  const res = await h.request('/api/sample/decision', {
    method: 'POST',
    key: bgeApprover.key,
    headers: json,
    body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const [row] = await h.database.db
    .select()
    .from(emails)
    .where(and(eq(emails.kind, 'samples_accepted'), eq(emails.manifestId, manifest_id)));
  expect(row).toBeDefined();
  await h.jobs['email.send']({ emailId: row!.id });
  const [mail] = await waitFor(
    async () => smtp.received.filter((m) => m.to.includes(uploader.user.email)),
    (list) => list.length > 0,
    'the acceptance email',
  );
  return { mail: mail!, row: row!, stored };
}

const preview = (name: string, acceptance_text: string, key = admin.key) =>
  h.request(`/api/admin/associated-types/${name}/acceptance-preview`, {
    method: 'POST',
    key,
    headers: json,
    body: JSON.stringify({ acceptance_text }),
  });

describe('the acceptance email', () => {
  it('starts with BGE’s text: the agreement, the shipping, the tubes, the contacts', async () => {
    const [bge] = await h.database.db.select().from(associatedTypes).where(eq(associatedTypes.name, 'BGE'));
    expect(bge?.acceptanceText).toBe(ACCEPTANCE_DEFAULTS.BGE);
  });

  it('tells the uploader of accepted BGE samples what to do next, in text and HTML, with the centre’s contact in copy', async () => {
    const { mail, row, stored } = await acceptedEmail(2);
    const tubes = stored.map((s) => s.tubeOrWellId!);
    const specimens = [...new Set(stored.map((s) => s.specimenId!))];
    expect(mail.subject).toBe('[ERGA] 2 samples accepted for BGE');
    expect(mail.cc).toEqual([CONTACT.email]);
    expect(mail.to.sort()).toEqual([CONTACT.email, uploader.user.email].sort());
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Pyrenean mosses');
      expect(part).toContain('Biodiversity Genomics Europe (BGE)');
      expect(part).toContain(`${tubes[0]}, ${tubes[1]}`);
      for (const s of specimens) expect(part).toContain(s);
      expect(part).toContain(MTA_LINK_STAND_IN);
      expect(part).toContain(SHIPPING_LINK_STAND_IN);
      expect(part).toContain(CONTACT.email);
      expect(part).toContain(CONTACT.name);
      expect(part).not.toContain('{{');
    }
    expect(mail.text).toContain(`the BGE material transfer agreement <${MTA_LINK_STAND_IN}>`);
    expect(mail.text).toContain('1. Sign the material transfer agreement (MTA)');
    expect(mail.text).toContain('They are on their way to ENA.');
    expect(mail.html).toContain(`<a href="${MTA_LINK_STAND_IN}">the BGE material transfer agreement</a>`);
    expect(mail.html).toContain('<strong>Pyrenean mosses</strong>');
    expect(mail.html).toContain(`<a href="mailto:${CONTACT.email}">${CONTACT.email}</a>`);
    expect(mail.html).toContain('CENTRO NACIONAL DE ANÁLISIS GENÓMICO');
    // recorded as sent, with its copy and both parts
    const [sent] = await h.database.db.select().from(emails).where(eq(emails.id, row.id));
    expect(sent).toMatchObject({ status: 'sent', cc: [CONTACT.email] });
    expect(sent!.html).toContain('<ol>');
  });

  it('shows a hostile profile title and text as written, never as HTML that runs or a link that is not http(s)', async () => {
    const hostile = await createProfile(h, uploader.key, {
      title: '<script>alert(1)</script> [x](javascript:alert(2))',
      description: '',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['CNAG'],
    });
    const saved = ACCEPTANCE_DEFAULTS.BGE!;
    await h.database.db
      .update(associatedTypes)
      .set({ acceptanceText: `${saved}\n\n<img src=x onerror=alert(3)> [click](javascript:alert(4)) <script>alert(5)</script>` })
      .where(eq(associatedTypes.name, 'BGE'));
    try {
      const { mail } = await acceptedEmail(1, hostile);
      expect(mail.html).not.toMatch(/<script|<img|href="javascript/i);
      expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(mail.html).toContain('&lt;img src=x onerror=alert(3)&gt;');
      for (const [, href] of mail.html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(https?:\/\/|mailto:)/);
      expect(mail.text).toContain('<script>alert(1)</script> [x](javascript:alert(2))');
    } finally {
      await h.database.db.update(associatedTypes).set({ acceptanceText: saved }).where(eq(associatedTypes.name, 'BGE'));
    }
  });

  it('stays the plain email for a type with no text and a profile with no centre contacts', async () => {
    await h.database.db.update(sequencingCentres).set({ contacts: [] }).where(eq(sequencingCentres.name, 'CNAG'));
    await h.database.db.update(associatedTypes).set({ acceptanceText: '' }).where(eq(associatedTypes.name, 'BGE'));
    try {
      const { mail } = await acceptedEmail(1);
      expect(mail.subject).toBe('[ERGA] 1 sample accepted');
      expect(mail.html).toBe('');
      expect(mail.cc).toEqual([]);
      expect(mail.text).toContain('bge-approver accepted 1 sample');
    } finally {
      await h.database.db
        .update(sequencingCentres)
        .set({ contacts: [CONTACT] })
        .where(eq(sequencingCentres.name, 'CNAG'));
      await h.database.db.update(associatedTypes).set({ acceptanceText: ACCEPTANCE_DEFAULTS.BGE! }).where(eq(associatedTypes.name, 'BGE'));
    }
  });
});

describe('the preview of an acceptance text', () => {
  it('fills a text with example values, as the email would be', async () => {
    const res = await preview('BGE', 'Thanks for **{{profile_title}}**: ship {{tubes}} to {{centres}}. [MTA](https://example.org/mta)');
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as AcceptancePreview;
    expect(body.subject).toBe('[ERGA] 2 samples accepted for BGE');
    expect(body.text).toContain('Thanks for Example profile: Pyrenean beetles: ship FS00000001, FS00000002 to EXAMPLE SEQUENCING CENTRE.');
    expect(body.text).toContain('MTA <https://example.org/mta>');
    expect(body.html).toContain('<a href="https://example.org/mta">MTA</a>');
    expect(body.cc).toEqual(['sample.reception@example.org']);
  });

  it('refuses an unknown placeholder with 400 naming it, in a preview and when the text is saved', async () => {
    const text = 'Ship {{tubes}} and {{ tube_list }} and {{shipping_date}}.';
    const saving = h.request('/api/admin/associated-types/BGE', {
      method: 'PATCH',
      key: admin.key,
      headers: json,
      body: JSON.stringify({ acceptance_text: text }),
    });
    for (const res of [await preview('BGE', text), await saving]) {
      expect(res.status).toBe(400);
      const said = JSON.stringify(await res.json());
      expect(said).toContain('Unknown placeholders {{tube_list}}, {{shipping_date}} in the acceptance text');
      expect(said).toContain('acceptance_text');
    }
    const [bge] = await h.database.db.select().from(associatedTypes).where(eq(associatedTypes.name, 'BGE'));
    expect(bge?.acceptanceText).toBe(ACCEPTANCE_DEFAULTS.BGE);
  });

  it('renders raw HTML and a javascript: link harmless', async () => {
    const res = await preview('BGE', '<script>alert(1)</script>\n\n[click](javascript:alert(2)) <a href="javascript:alert(3)">x</a>');
    expect(res.status).toBe(200);
    const { html } = (await res.json()) as AcceptancePreview;
    expect(html).not.toMatch(/<script|href="javascript|<a href="javascript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('[click](javascript:alert(2))');
  });

  it('is for admins only, for associated types that exist, and sends nothing', async () => {
    const count = async () => (await h.database.db.select({ n: sql<number>`count(*)::int` }).from(emails))[0]?.n;
    const before = await count();
    expect((await preview('BGE', 'hello', uploader.key)).status).toBe(404);
    expect((await preview('NO_SUCH_TYPE', 'hello')).status).toBe(404);
    expect((await preview('bge', 'hello')).status).toBe(200);
    expect(await count()).toBe(before);
  });
});
