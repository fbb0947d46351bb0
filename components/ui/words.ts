// one formatter for every number the portal writes: Number#toLocaleString builds a new one at each call
const NUMBER = new Intl.NumberFormat('en-GB');

/** "1,204": a number as the portal writes it. */
export const formatNumber = (n: number): string => NUMBER.format(n);

/** "1 sample", "12 samples", "1,204 rows": a count and its noun, the one way the portal says how many. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

export const samplesWord = (n: number): string => plural(n, 'sample');

/** How people recognise a sample: its tube, else its specimen, else its id. */
export const sampleName = (s: { svc_id: string; TUBE_OR_WELL_ID?: string | null; SPECIMEN_ID?: string | null }): string =>
  s.TUBE_OR_WELL_ID || s.SPECIMEN_ID || s.svc_id;
