import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/**
 * The one XML builder and parser configuration for ENA documents. Builders assemble plain objects (attributes
 * prefixed `@_`, element text under `#text`, key order = element order, which ENA's XSDs require) and this module
 * serialises them, so every value is escaped by the library and nothing is concatenated by hand.
 */
export type XmlNode = { [name: string]: XmlValue };
export type XmlValue = string | XmlNode | XmlNode[] | string[] | undefined;

export const ATTR = '@_';
export const TEXT = '#text';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  textNodeName: TEXT,
  suppressEmptyNode: true,
  // otherwise an attribute whose value is "true" is written bare, which is not XML
  suppressBooleanAttributes: false,
  format: true,
  indentBy: '  ',
});

// characters XML 1.0 cannot carry at all, even escaped
const INVALID_XML_CHARS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 controls XML 1.0 forbids are what this pattern finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Element text as a parser will read it back: invalid characters dropped, line ends normalised as XML does. */
export function xmlText(value: string): string {
  return value.replace(INVALID_XML_CHARS, '').replace(/\r\n?/g, '\n');
}

/** Attribute values: as text, with line breaks and tabs flattened (parsers normalise them to spaces anyway). */
export function xmlAttr(value: string): string {
  return xmlText(value).replace(/[\t\n]/g, ' ');
}

/** An element with attributes and optional text. Undefined attributes are left out. */
export function element(attrs: Record<string, string | undefined>, text?: string): XmlNode {
  const node: XmlNode = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) node[`${ATTR}${k}`] = xmlAttr(v);
  if (text !== undefined) node[TEXT] = xmlText(text);
  return node;
}

/** Drops undefined members so that optional elements disappear rather than printing empty. */
export function compact(node: Record<string, XmlValue>): XmlNode {
  const out: XmlNode = {};
  for (const [k, v] of Object.entries(node)) if (v !== undefined) out[k] = v;
  return out;
}

/** Serialises one document with the XML declaration. */
export function buildXml(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(root) as string}`;
}

/**
 * A parser that keeps every value a string (accessions and ids like "00123" must not become numbers) and exactly
 * as sent (an alias is a key: trimming it would lose the object); callers trim the text they display.
 */
export function createXmlParser(isArray: (name: string, path: string) => boolean = () => false): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTR,
    textNodeName: TEXT,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (name, jpath) => isArray(name, String(jpath)),
  });
}

/** A parsed node's text, whether the parser produced a bare string or an object with `#text`. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && TEXT in value) return textOf((value as Record<string, unknown>)[TEXT]);
  return '';
}

/** A parsed node's attribute, or undefined. */
export function attrOf(value: unknown, name: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = (value as Record<string, unknown>)[`${ATTR}${name}`];
  return typeof v === 'string' ? v : v === undefined ? undefined : String(v);
}

/** A parsed child as an array, whatever the parser made of one or many. */
export function arrayOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** A parsed node's child element. */
export function childOf(value: unknown, name: string): unknown {
  return value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}
