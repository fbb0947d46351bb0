import {
  type AcceptanceCentre,
  type AcceptanceFacts,
  type AcceptanceTemplate,
  centreCopies,
  checkAcceptanceText,
  fillPlaceholders,
} from './acceptance';
import type { AcceptancePreview } from './contract';
import { escapeMarkdown, markdownUrl, renderMarkdown } from './markdown';

/**
 * The email that tells an uploader their samples are accepted, with what to do next: the acceptance texts of the
 * samples' associated types (lib/mail/acceptance.ts), filled for the samples, and the profile's sequencing centres'
 * contacts in copy. Plain functions of what they are given; lib/mail/acceptance-reference.ts reads the texts and
 * the centres.
 */

export interface AcceptedSample {
  svcId: string;
  tube: string | null;
  specimen: string | null;
}

export interface AcceptanceInput {
  /** the Tree of Life project, as the subject names it (ERGA) */
  project: string;
  /** who accepted */
  by: string;
  manifestId: string;
  profileTitle: string;
  /** every sample of the group the decision accepted, in the list at the end */
  samples: AcceptedSample[];
  /** those of them whose every approval is now present: what the texts are about */
  accepted: AcceptedSample[];
  /** where the samples stand now (on their way to ENA, or what they still await) */
  next: string;
  /** the portal's page of the samples */
  link: string;
  /** the texts of the samples' associated types; the empty ones are left out */
  templates: AcceptanceTemplate[];
  centres: AcceptanceCentre[];
  /** the addresses the email goes to, which are not copied again */
  recipients: string[];
}

export interface AcceptanceEmail {
  subject: string;
  text: string;
  html: string;
  cc: string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const LISTED = 50;

/**
 * The acceptance email with the acceptance texts and contacts given, or null when there is nothing to add to the
 * plain one (lib/mail/messages.ts): no sample is accepted yet, or none of the texts says anything and no centre has
 * a contact to copy.
 */
export function acceptanceEmailWith(input: AcceptanceInput): AcceptanceEmail | null {
  const templates = input.templates.filter((t) => t.text.trim());
  const cc = centreCopies(input.centres, input.recipients);
  if (!input.accepted.length || (!templates.length && !cc.length)) return null;
  const facts: AcceptanceFacts = {
    profileTitle: input.profileTitle,
    manifestId: input.manifestId,
    manifestLink: input.link,
    samples: input.accepted,
    centres: input.centres,
  };
  const n = input.samples.length;
  const types = templates.map((t) => t.type).join(' and ');
  const subject = `[${input.project.toUpperCase()}] ${plural(n, 'sample')} accepted${types ? ` for ${types}` : ''}`;
  const tube = (s: AcceptedSample) => (s.tube?.trim() ? ` (${escapeMarkdown(s.tube)})` : '');
  const link = markdownUrl(input.link);
  const markdown = [
    `${escapeMarkdown(input.by)} accepted ${plural(n, 'sample')} of manifest ${escapeMarkdown(input.manifestId)}. ${escapeMarkdown(input.next)}`,
    ...templates.map((t) => fillPlaceholders(t, facts)),
    [
      `${n === 1 ? 'The sample' : 'The samples'} (svc_id and TUBE_OR_WELL_ID):`,
      '',
      ...input.samples.slice(0, LISTED).map((s) => `- ${escapeMarkdown(s.svcId)}${tube(s)}`),
      ...(n > LISTED ? [`- … and ${n - LISTED} more`] : []),
    ].join('\n'),
    link ? `See them: ${link}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const rendered = renderMarkdown(markdown);
  return { subject, text: rendered.text, html: htmlDocument(subject, rendered.html), cc };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A whole HTML document around the rendered Markdown: an email's HTML part. */
function htmlDocument(subject: string, body: string): string {
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head><body style="font-family: sans-serif; line-height: 1.4">',
    body.trimEnd(),
    '</body></html>',
    '',
  ].join('\n');
}

/** The example the preview fills a text with: made-up samples, a made-up centre, none of anyone's data. */
export const EXAMPLE_CENTRE: AcceptanceCentre = {
  name: 'EXAMPLE',
  label: 'EXAMPLE SEQUENCING CENTRE',
  contacts: [{ name: 'Sam Example', email: 'sample.reception@example.org', role: 'sample reception' }],
};

const EXAMPLE_SAMPLES: AcceptedSample[] = [
  { svcId: '000000000000000000000001', tube: 'FS00000001', specimen: 'ERGA_EX_0001' },
  { svcId: '000000000000000000000002', tube: 'FS00000002', specimen: 'ERGA_EX_0001' },
];

/**
 * What the acceptance email of an associated type says with this text, filled with example values: the admin's
 * preview before saving. Refuses a text with unknown placeholders, as saving it would.
 */
export function previewAcceptance(type: { name: string; label: string }, text: string, baseUrl: string): AcceptancePreview {
  checkAcceptanceText(text);
  const manifestId = '00000000-0000-4000-8000-000000000000';
  const email = acceptanceEmailWith({
    project: 'erga',
    by: 'a-sample-manager',
    manifestId,
    profileTitle: 'Example profile: Pyrenean beetles',
    samples: EXAMPLE_SAMPLES,
    accepted: EXAMPLE_SAMPLES,
    next: 'They are on their way to ENA.',
    link: `${baseUrl}/samples?manifest_id=${manifestId}`,
    templates: [{ type: type.name, label: type.label, text }],
    centres: [EXAMPLE_CENTRE],
    recipients: ['uploader@example.org'],
  });
  // never null: the example centre always has a contact to copy
  return email ?? { subject: '', text: '', html: '', cc: [] };
}
