import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { currentDefinition, MANIFEST_PROJECTS } from '@/lib/manifests';
import { checkPrefill, commonFields, parsePrefillParam } from '@/lib/manifests/prefill';

/**
 * The `prefill` parameter of GET manifest/template: any JSON object of text reads back as its entries, anything else
 * is a 400 (an AppError `invalid`) and never another failure; a vocabulary's own values always pass its check.
 */

const refusal = (fn: () => unknown): AppError | null => {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
};

describe('parsePrefillParam', () => {
  it('reads any JSON object of text or numbers as its entries, numbers as their text', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }))),
        (d) => {
          const sent = JSON.stringify(d);
          const expected = Object.entries(JSON.parse(sent) as Record<string, string | number>).map(([k, v]) => [k, String(v)]);
          expect(parsePrefillParam(sent)).toEqual(expected);
        },
      ),
    );
  });

  it('answers any text with entries or a 400, never another failure', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (raw) => {
        const err = refusal(() => parsePrefillParam(raw));
        if (err) {
          expect(err.code).toBe('invalid');
          expect(err.errors?.length).toBeGreaterThan(0);
          expect(err.errors?.every((e) => e.path === 'prefill' || e.path.startsWith('prefill.'))).toBe(true);
        }
      }),
    );
  });

  it('refuses JSON that is not an object of text', () => {
    const notAnObject = fc.oneof(fc.array(fc.jsonValue()), fc.string(), fc.double(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(notAnObject, (v) => {
        expect(refusal(() => parsePrefillParam(JSON.stringify(v)))?.code).toBe('invalid');
      }),
    );
    const nested = fc.dictionary(fc.string(), fc.oneof(fc.array(fc.string()), fc.boolean(), fc.constant(null)), { minKeys: 1 });
    fc.assert(
      fc.property(nested, (d) => {
        expect(refusal(() => parsePrefillParam(JSON.stringify(d)))?.code).toBe('invalid');
      }),
    );
  });

  it('takes nothing from an absent or blank parameter', () => {
    expect(parsePrefillParam(undefined)).toEqual([]);
    expect(parsePrefillParam('  ')).toEqual([]);
  });
});

describe('checkPrefill', () => {
  const choices = MANIFEST_PROJECTS.flatMap((p) => {
    const definition = currentDefinition(p);
    return commonFields(definition)
      .filter((f) => f.kind === 'enum' && f.allowedValues?.length)
      .map((f) => ({ definition, field: f.name, values: f.allowedValues ?? [] }));
  });

  it('passes every allowed value of a common column and writes it as it is', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...choices).chain((c) => fc.record({ c: fc.constant(c), value: fc.constantFrom(...c.values) })),
        async ({ c, value }) => {
          const checked = await checkPrefill(c.definition, [[c.field, value]]);
          expect(checked.get(c.field)).toBe(value);
        },
      ),
    );
  });
});
