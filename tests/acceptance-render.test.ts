import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type AcceptanceFacts, centreCopies, checkAcceptanceText, fillPlaceholders, renderAcceptance } from '@/lib/mail/acceptance';
import { ACCEPTANCE_DEFAULTS } from '@/lib/mail/acceptance-defaults';
import { acceptanceEmailWith } from '@/lib/mail/acceptance-email';
import { escapeMarkdown, loadMarkdown, renderMarkdown } from '@/lib/mail/markdown';

beforeAll(loadMarkdown);

import { ACCEPTANCE_PLACEHOLDER_NAMES, AcceptanceTextSchema, unknownPlaceholders } from '@/lib/reference/contract';

/**
 * The acceptance text's renderer (lib/mail/markdown.ts, lib/mail/acceptance.ts): whatever an admin writes and
 * whatever a profile or a sample holds, the HTML runs nothing and links only to http, https and mailto addresses,
 * and a filled-in value reads as it was written.
 */

const facts = (over: Partial<AcceptanceFacts> = {}): AcceptanceFacts => ({
  profileTitle: 'Hedgerow moths',
  manifestId: '6a1f0000-0000-4000-8000-000000000001',
  manifestLink: 'https://broker.example.org/samples?manifest_id=6a1f0000-0000-4000-8000-000000000001',
  samples: [
    { tube: 'FS01', specimen: 'SP1' },
    { tube: 'FS02', specimen: 'SP1' },
  ],
  centres: [{ name: 'CNAG', label: 'CNAG LABEL', contacts: [{ name: 'Ana', email: 'ana@cnag.example.org', role: 'reception' }] }],
  ...over,
});
const bge = (text: string) => ({ type: 'BGE', label: 'Biodiversity Genomics Europe (BGE)', text });

/** Pieces that Markdown, HTML and URLs give meaning to, so that random texts meet them often. */
const hostilePiece = fc.constantFrom(
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD4=)',
  '[x](vbscript:msgbox(1))',
  '<javascript:alert(1)>',
  '![i](https://example.org/i.png)',
  '[ok](https://example.org/ok)',
  '<https://example.org/auto>',
  'mailto:a@b.org',
  'www.example.org',
  '[ref]: javascript:alert(1)\n\n[ref]',
  '&lt;script&gt;',
  '&#106;avascript:alert(1)',
  '`code <b>`',
  '```\n<script>\n```',
  '{{tubes}}',
  '{{profile_title}}',
  '*',
  '_',
  '**',
  '\n',
  '\n\n',
  '- ',
  '1. ',
  '> ',
  '# ',
  '"',
  "'",
  '<',
  '>',
  '&',
  '(',
  ')',
  '[',
  ']',
  ':',
  '\\',
);
const hostileText = fc.array(fc.oneof(hostilePiece, fc.string()), { maxLength: 12 }).map((parts) => parts.join(''));

function expectHarmless(html: string) {
  expect(html).not.toMatch(/<(script|img|iframe|object|embed|style|svg|form|input)/i);
  // the only tags made: what Markdown makes
  for (const [, tag] of html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g))
    expect([
      'p',
      'a',
      'em',
      'strong',
      'code',
      'pre',
      'ul',
      'ol',
      'li',
      'h1',
      'h2',
      'h3',
      'h4',
      'h5',
      'h6',
      'blockquote',
      'hr',
      'br',
      's',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
    ]).toContain(tag!.toLowerCase());
  for (const [, attrs] of html.matchAll(/<[a-z0-9]+(\s[^>]*)>/gi)) {
    for (const [, name, value] of (attrs ?? '').matchAll(/([a-z-]+)="([^"]*)"/gi)) {
      expect(['href', 'start', 'style', 'class', 'title']).toContain(name!.toLowerCase());
      if (name!.toLowerCase() === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:)/i);
    }
  }
}

describe('the Markdown renderer', () => {
  it('makes HTML that runs nothing and links only to http(s) and mailto, whatever the text', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        expectHarmless(renderMarkdown(text).html);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the words of a link to nowhere, or to a refused address, as text', () => {
    for (const source of ['[ref]: javascript:alert(1)\n\n[ref]()', '[here]()', '[here](javascript:alert(1))']) {
      const { html } = renderMarkdown(source);
      expect(html).not.toContain('<a');
      expectHarmless(html);
    }
  });

  it('shows an escaped value as it was written, in text and HTML, never as Markdown or a link', () => {
    fc.assert(
      fc.property(fc.oneof(hostilePiece, fc.string(), fc.string({ unit: 'grapheme' })), (value) => {
        const { text, html } = renderMarkdown(`Value: ${escapeMarkdown(value)}`);
        const shown = value
          .replace(/[\r\n\t]+/g, ' ')
          .trim()
          .replace(/\0/g, '\uFFFD');
        expect(text).toBe(`Value: ${shown}`.trim());
        expect(html).not.toContain('<a ');
        expect(html).not.toMatch(/<(em|strong|code)>/);
      }),
      { numRuns: 400 },
    );
  });

  it('writes links in the text part as their words and address, a list with its numbers', () => {
    const { text, html } = renderMarkdown('Sign [the MTA](https://example.org/mta).\n\n1. one\n2. two <x@example.org>\n\n- a\n- b');
    expect(text).toBe('Sign the MTA <https://example.org/mta>.\n\n1. one\n2. two x@example.org\n\n- a\n- b');
    expect(html).toContain('<a href="https://example.org/mta">the MTA</a>');
    expect(html).toContain('<a href="mailto:x@example.org">x@example.org</a>');
  });
});

describe('placeholders', () => {
  it('fills every known placeholder with its escaped value, once, and never expands a value', () => {
    const all = ACCEPTANCE_PLACEHOLDER_NAMES.map((n) => `${n}=[{{${n}}}]`).join('\n\n');
    const { text } = renderAcceptance(bge(all), facts({ profileTitle: '{{tubes}} *not bold* <b>' }));
    expect(text).toContain('profile_title=[{{tubes}} *not bold* <b>]');
    expect(text).toContain('associated_type=[Biodiversity Genomics Europe (BGE)]');
    expect(text).toContain('sample_count=[2]');
    expect(text).toContain('tubes=[FS01, FS02]');
    expect(text).toContain('specimens=[SP1]');
    expect(text).toContain('centres=[CNAG LABEL]');
    expect(text).toContain('centre_contacts=[Ana (ana@cnag.example.org), reception]');
    expect(text).toContain('manifest_link=[https://broker.example.org/samples?manifest_id=');
  });

  it('lets a link point at {{manifest_link}}', () => {
    const { html } = renderAcceptance(bge('[your samples]({{manifest_link}})'), facts());
    expect(html).toContain(
      '<a href="https://broker.example.org/samples?manifest_id=6a1f0000-0000-4000-8000-000000000001">your samples</a>',
    );
  });

  it('finds the unknown ones, spaces inside the braces allowed, and refuses them by name', () => {
    expect(unknownPlaceholders('{{ tubes }} {{tube_list}} {{}} {{ Tubes }} {{tube_list}}')).toEqual(['tube_list', '', 'Tubes']);
    expect(() => checkAcceptanceText('Ship {{tube_list}}')).toThrow(/\{\{tube_list\}\}/);
    expect(() => checkAcceptanceText('Ship {{ tubes }}')).not.toThrow();
    const parsed = AcceptanceTextSchema.safeParse('{{shipping}}');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('{{shipping}}');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ACCEPTANCE_PLACEHOLDER_NAMES)), fc.string(), (names, glue) => {
        const text = names.map((n) => `{{${n}}}`).join(glue.replace(/[{}]/g, ''));
        expect(unknownPlaceholders(text)).toEqual([]);
      }),
    );
  });

  it('holds BGE’s default to the known placeholders', () => {
    for (const text of Object.values(ACCEPTANCE_DEFAULTS)) expect(unknownPlaceholders(text)).toEqual([]);
    const filled = fillPlaceholders(bge(ACCEPTANCE_DEFAULTS.BGE!), facts());
    expect(filled).not.toMatch(/\{\{/);
  });
});

describe('the acceptance email', () => {
  const input = {
    project: 'erga',
    by: 'jane',
    manifestId: 'm1',
    profileTitle: 'Moths',
    samples: [{ svcId: 's1', tube: 'FS01', specimen: 'SP1' }],
    accepted: [{ svcId: 's1', tube: 'FS01', specimen: 'SP1' }],
    next: 'They are on their way to ENA.',
    link: 'https://broker.example.org/samples?manifest_id=m1',
    templates: [bge('Next: {{tubes}}'), { type: 'ERGA_COMMUNITY', label: 'ERGA community', text: '' }],
    centres: facts().centres,
    recipients: ['ANA@cnag.example.org'],
  };

  it('names the types whose texts it carries, and copies no recipient', () => {
    const email = acceptanceEmailWith(input);
    expect(email?.subject).toBe('[ERGA] 1 sample accepted for BGE');
    expect(email?.cc).toEqual([]);
    expect(email?.text).toContain('Next: FS01');
    expect(email?.html).toMatch(/^<!doctype html>/);
  });

  it('is not made when no sample is accepted yet, or there is nothing to add', () => {
    expect(acceptanceEmailWith({ ...input, accepted: [] })).toBeNull();
    expect(acceptanceEmailWith({ ...input, templates: [], centres: [] })).toBeNull();
  });

  it('copies each centre contact with an address once', () => {
    const contacts = [
      { name: 'A', email: 'a@x.org', role: '' },
      { name: 'A again', email: 'A@x.org', role: '' },
      { name: 'No address', email: '', role: '' },
      { name: 'Bad', email: 'bad\r\nBcc: victim@x.org', role: '' },
    ];
    expect(centreCopies([{ name: 'C', label: 'C', contacts }], ['someone@x.org'])).toEqual(['a@x.org']);
  });
});
