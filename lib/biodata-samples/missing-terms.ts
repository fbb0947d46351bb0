/** INSDC's missing-value terms (insdc.org/technical-specifications/missing-value-reporting), which any field takes. */
const MISSING_TERMS = [
  'not applicable',
  'not collected',
  'not provided',
  'restricted access',
  'missing: control sample',
  'missing: sample group',
  'missing: synthetic construct',
  'missing: lab stock',
  'missing: third party data',
  'missing: data agreement established pre-2023',
  'missing: endangered species',
  'missing: human-identifiable',
];
const MISSING_BY_KEY = new Map(MISSING_TERMS.map((t) => [t.replace(/[\s_]+/g, ' '), t]));
export const missingTerm = (value: string) =>
  MISSING_BY_KEY.get(
    value
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, ' '),
  ) ?? null;
