import { z } from 'zod';
import { PREFILL_MAX_ROWS } from '@/lib/manifests/template-limits';

const ROWS_MESSAGE = `Enter a whole number of rows from 1 to ${PREFILL_MAX_ROWS}.`;

/** The pre-filled template's form: how many rows, and a value for each column the profile's samples share. */
export const PrefillFormSchema = z.object({
  rows: z.coerce.number<string>(ROWS_MESSAGE).int(ROWS_MESSAGE).min(1, ROWS_MESSAGE).max(PREFILL_MAX_ROWS, ROWS_MESSAGE),
  values: z.record(z.string(), z.string()),
});
