import type MarkdownIt from 'markdown-it';

/**
 * Markdown an admin writes for emails, made into the email's two parts. Safe by construction rather than by a
 * sanitiser run afterwards: raw HTML is never passed through (markdown-it's `html: false` shows it as text), images
 * are off (an email that loads addresses when opened tells its sender who read it), and a link is made only to an
 * http, https or mailto address; anything else stays the text it was written as.
 */

/** The only destinations a link in an email may have. */
const LINKABLE = /^(https?:\/\/|mailto:)/i;

type Parser = InstanceType<typeof MarkdownIt>;
let md: Parser | null = null;

/**
 * Loads the renderer once; every render needs it loaded first. Loaded on first use rather than with the module, so
 * that the processes and requests that send no Markdown email do not carry it.
 */
export async function loadMarkdown(): Promise<void> {
  if (md) return;
  const { default: Renderer } = await import('markdown-it');
  const parser = new Renderer('default', { html: false, linkify: true, typographer: false });
  parser.disable(['image']);
  // markdown-it's own check refuses a few schemes; this one allows only three
  parser.validateLink = (url: string) => LINKABLE.test(url.trim());
  md = parser;
}

function parser(): Parser {
  if (!md) throw new Error('lib/mail/markdown.ts: loadMarkdown() was not awaited before rendering');
  return md;
}

type Token = ReturnType<Parser['parse']>[number];

/** Every ASCII punctuation character backslash-escaped, so that a value is shown as it is, never read as Markdown. */
export function escapeMarkdown(value: string): string {
  return value
    .replace(/[\r\n\t]+/g, ' ')
    .trim()
    .replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * An address as a link's destination: only http, https or mailto, percent-encoded where Markdown or the email's
 * text would cut it; null for anything else.
 */
export function markdownUrl(url: string): string | null {
  const u = url.trim();
  if (!LINKABLE.test(u)) return null;
  return u.replace(/[\s()<>[\]\\`*"']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

export interface RenderedMarkdown {
  text: string;
  html: string;
}

/** The two parts of an email written in Markdown. */
export function renderMarkdown(source: string): RenderedMarkdown {
  const m = parser();
  const tokens = m.parse(source, {});
  for (const t of tokens) if (t.children) t.children = withoutEmptyLinks(t.children);
  return { text: toText(tokens), html: m.renderer.render(tokens, m.options, {}) };
}

/**
 * markdown-it makes a link of `[words]()` even when its destination is empty (or was refused by `validateLink` and
 * emptied): such a link leads nowhere, so its words stay as text.
 */
function withoutEmptyLinks(children: Token[]): Token[] {
  const out: Token[] = [];
  const dropped: boolean[] = [];
  for (const t of children) {
    if (t.type === 'link_open') {
      const drop = !LINKABLE.test(String(t.attrGet('href') ?? '').trim());
      dropped.push(drop);
      if (drop) continue;
    } else if (t.type === 'link_close' && dropped.pop()) continue;
    out.push(t);
  }
  return out;
}

/** What an inline run reads as in plain text: a link's address after its words, unless the words are the address. */
function inlineText(children: Token[]): string {
  let out = '';
  const hrefs: (string | null)[] = [];
  let linkStart = 0;
  for (const t of children) {
    switch (t.type) {
      case 'softbreak':
      case 'hardbreak':
        out += '\n';
        break;
      case 'link_open':
        hrefs.push(t.attrGet('href') as string | null);
        linkStart = out.length;
        break;
      case 'link_close': {
        const href = hrefs.pop() ?? null;
        const words = out.slice(linkStart).trim();
        if (href && words !== href && `mailto:${words}` !== href) out += ` <${href}>`;
        break;
      }
      default:
        out += t.content;
    }
  }
  return out;
}

interface ListState {
  ordered: boolean;
  next: number;
}

/**
 * The plain-text part: paragraphs apart, list items with their bullet or number, quotes with `> `, code indented;
 * the Markdown's emphasis marks are dropped, as a reader of plain text has no use for them.
 */
function toText(tokens: Token[]): string {
  const lines: string[] = [];
  const lists: ListState[] = [];
  let quote = 0;
  // the bullet or number waiting for the first line of a list item
  let marker: string | null = null;
  const indent = () => '  '.repeat(Math.max(0, lists.length - 1));
  // a table's row is written once its cells are read
  let row: string[] | null = null;
  const write = (text: string) => {
    if (row) {
      row.push(text.replace(/\n/g, ' '));
      return;
    }
    const first = marker;
    for (const [i, line] of text.split('\n').entries()) {
      const lead = lists.length ? indent() + (i === 0 && first !== null ? first : '  ') : '';
      lines.push(`${'> '.repeat(quote)}${lead}${line}`.trimEnd());
    }
    marker = null;
  };
  const gap = () => {
    if (lines.length && lines.at(-1) !== '') lines.push('');
  };
  for (const t of tokens) {
    switch (t.type) {
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (!lists.length) gap();
        lists.push({ ordered: t.type === 'ordered_list_open', next: Number(t.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (!lists.length) gap();
        break;
      case 'list_item_open': {
        const list = lists.at(-1);
        marker = list?.ordered ? `${list.next++}. ` : '- ';
        break;
      }
      case 'blockquote_open':
        gap();
        quote += 1;
        break;
      case 'blockquote_close':
        quote -= 1;
        gap();
        break;
      case 'inline':
        write(inlineText(t.children ?? []));
        break;
      case 'paragraph_close':
      case 'heading_close':
        if (!t.hidden && !lists.length) gap();
        break;
      case 'fence':
      case 'code_block':
        write(
          t.content
            .replace(/\n$/, '')
            .split('\n')
            .map((l: string) => `    ${l}`)
            .join('\n'),
        );
        if (!lists.length) gap();
        break;
      case 'hr':
        gap();
        write('----');
        gap();
        break;
      case 'table_open':
        gap();
        break;
      case 'tr_open':
        row = [];
        break;
      case 'tr_close': {
        const cells = row ?? [];
        row = null;
        write(cells.join(' | '));
        break;
      }
      case 'table_close':
        gap();
        break;
      case 'html_block':
        write(t.content.replace(/\n$/, ''));
        break;
    }
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
