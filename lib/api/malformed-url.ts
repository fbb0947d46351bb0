// URLs longer than this are refused before routing (the server lets up to 64 KiB of headers through to say so)
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * What no route should see: an over-long URL (414), a NUL character, raw or percent-encoded, and percent-encoding
 * that does not decode to UTF-8 (400), anywhere in the path or the query.
 */
export function refuseMalformedUrl(url: string): { status: 400 | 414; detail: string } | null {
  if (url.length > MAX_URL_LENGTH)
    return { status: 414, detail: `The URL is longer than ${MAX_URL_LENGTH} characters; send long lists in a POST body.` };
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const pathAndQuery = start < 0 ? '' : url.slice(start);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a raw NUL in the URL is exactly what is refused here
  if (/%00|\u0000/i.test(pathAndQuery)) return { status: 400, detail: 'The URL contains a NUL character (%00), which no value may hold.' };
  for (const part of pathAndQuery.split(/[/?&=]/)) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return { status: 400, detail: `The URL has malformed percent-encoding: "${part.slice(0, 40)}" is not UTF-8.` };
    }
  }
  return null;
}
