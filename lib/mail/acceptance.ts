import { fieldInvalid } from '@/lib/errors';
import {
  ACCEPTANCE_TEXT_MAX,
  type AcceptancePlaceholder,
  isAcceptancePlaceholder,
  PLACEHOLDER_PATTERN,
  unknownPlaceholderMessage,
  unknownPlaceholders,
} from '@/lib/reference/contract';
import { escapeMarkdown, markdownUrl, type RenderedMarkdown, renderMarkdown } from './markdown';

/**
 * The acceptance email's admin-written part (issue 59): each associated type has a Markdown text with placeholders
 * (lib/reference/contract.ts lists them) that are filled for the accepted samples, then rendered to plain text and HTML
 * (lib/mail/markdown.ts). What this needs of the associated types and sequencing centres is the two small
 * interfaces below, so that it does not care where they are kept.
 */

/** An associated type's acceptance text. */
export interface AcceptanceTemplate {
  /** the type's name (BGE) */
  type: string;
  /** its label, for {{associated_type}} */
  label: string;
  /** Markdown with placeholders; empty: nothing to add */
  text: string;
}

/** Someone to write to about a sequencing centre's samples. */
export interface CentreContact {
  name: string;
  email: string;
  role: string;
}

/** A sequencing centre as the acceptance email names it. */
export interface AcceptanceCentre {
  name: string;
  label: string;
  contacts: CentreContact[];
}

/** What the placeholders are filled with, before any escaping. */
export interface AcceptanceFacts {
  profileTitle: string;
  manifestId: string;
  /** the portal's page of the accepted samples */
  manifestLink: string;
  samples: { tube: string | null; specimen: string | null }[];
  centres: AcceptanceCentre[];
}

/** The text's placeholders, refused as a field error naming them (a 400 at the API). */
export function checkAcceptanceText(text: string): void {
  if (text.length > ACCEPTANCE_TEXT_MAX)
    throw fieldInvalid('acceptance_text', `The acceptance text is longer than ${ACCEPTANCE_TEXT_MAX} characters.`);
  const unknown = unknownPlaceholders(text);
  if (unknown.length) throw fieldInvalid('acceptance_text', unknownPlaceholderMessage(unknown));
}

const distinct = (values: (string | null)[]) => [...new Set(values.map((v) => v?.trim() ?? '').filter(Boolean))];
const inWords = (values: string[]) => values.map(escapeMarkdown).join(', ');

function contactMarkdown(c: CentreContact): string {
  const url = markdownUrl(`mailto:${c.email.trim()}`);
  const name = escapeMarkdown(c.name || c.email);
  const address = url && c.email.trim() ? ` ([${escapeMarkdown(c.email)}](${url}))` : '';
  return `${name}${address}${c.role.trim() ? `, ${escapeMarkdown(c.role)}` : ''}`;
}

/** Each placeholder's Markdown: the facts escaped, so that a value is shown as written and never makes a link. */
function placeholderMarkdown(template: AcceptanceTemplate, facts: AcceptanceFacts): Record<AcceptancePlaceholder, string> {
  const contacts = facts.centres.flatMap((c) => c.contacts).filter((c) => c.email.trim() || c.name.trim());
  return {
    profile_title: escapeMarkdown(facts.profileTitle),
    associated_type: escapeMarkdown(template.label || template.type),
    sample_count: String(facts.samples.length),
    tubes: inWords(distinct(facts.samples.map((s) => s.tube))),
    specimens: inWords(distinct(facts.samples.map((s) => s.specimen))),
    centres: inWords(facts.centres.map((c) => c.label || c.name)),
    centre_contacts: contacts.map(contactMarkdown).join('; '),
    manifest_id: escapeMarkdown(facts.manifestId),
    manifest_link: markdownUrl(facts.manifestLink) ?? '',
  };
}

/**
 * The text with its placeholders filled, still Markdown. One pass: a value that itself looks like a placeholder is
 * shown as written. An unknown placeholder (a text saved before the list changed) is left as it was written.
 */
export function fillPlaceholders(template: AcceptanceTemplate, facts: AcceptanceFacts): string {
  const values = placeholderMarkdown(template, facts);
  return template.text.replace(PLACEHOLDER_PATTERN, (whole, raw: string) => {
    const name = raw.trim();
    return isAcceptancePlaceholder(name) ? values[name] : escapeMarkdown(whole);
  });
}

/** The text of one associated type for these samples, as plain text and HTML. */
export function renderAcceptance(template: AcceptanceTemplate, facts: AcceptanceFacts): RenderedMarkdown {
  return renderMarkdown(fillPlaceholders(template, facts));
}

// one address, nothing a header could be split at
const isAddress = (email: string) => /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/.test(email);

/**
 * Who the email is copied to: the centres' contacts with an address, each once, and none who is already among its
 * recipients.
 */
export function centreCopies(centres: AcceptanceCentre[], recipients: string[]): string[] {
  const seen = new Set(recipients.map((r) => r.trim().toLowerCase()));
  const cc: string[] = [];
  for (const contact of centres.flatMap((c) => c.contacts)) {
    const email = contact.email.trim();
    if (!isAddress(email) || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    cc.push(email);
  }
  return cc;
}
