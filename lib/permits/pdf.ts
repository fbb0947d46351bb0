/**
 * Whether bytes are a PDF by their content, not their name (ISO 32000-1 §7.5): the `%PDF-` header near the start,
 * and a trailer that parses: `startxref` with an offset inside the file pointing at a cross-reference table
 * (`xref`) or stream (`N G obj`), then `%%EOF`. Returns the reason when they are not.
 */
export function pdfProblem(bytes: Uint8Array): string | null {
  if (bytes.length < 64) return 'The file is too short to be a PDF.';
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!/%PDF-\d\.\d/.test(head)) return 'The file does not start like a PDF (no %PDF- header).';
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 2048))).toString('latin1');
  const eof = tail.lastIndexOf('%%EOF');
  if (eof < 0) return 'The PDF has no end-of-file marker (%%EOF): it may be truncated.';
  const startxref = /startxref\s+(\d+)\s*$/.exec(tail.slice(0, eof));
  if (!startxref) return 'The PDF has no startxref before its end-of-file marker.';
  const offset = Number(startxref[1]);
  if (!Number.isSafeInteger(offset) || offset >= bytes.length) return 'The PDF points at a cross-reference table outside the file.';
  const at = Buffer.from(bytes.subarray(offset, offset + 64)).toString('latin1');
  if (!/^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(at)) return 'The PDF’s cross-reference table is not where its trailer says.';
  return null;
}
