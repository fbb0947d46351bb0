import type { TaxonomyLookup } from '@/lib/manifests';

/** A taxonomy look-up that no service answers: a taxonomy check made without a stand-in fails loudly. */
export const NO_TAXONOMY: TaxonomyLookup = {
  byTaxId: () => Promise.reject(new Error('no taxonomy service in this test')),
  byScientificName: () => Promise.reject(new Error('no taxonomy service in this test')),
};
