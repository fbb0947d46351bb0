import { z } from 'zod';
import { ProfileInputSchema } from '@/lib/profiles/contract';

// a checkbox group gives a list, one ticked box a string, none false or undefined
const list = z.preprocess((v) => (Array.isArray(v) ? v : typeof v === 'string' && v ? [v] : []), z.array(z.string()));

// the API's input, with what the form can check before sending (the server checks the rest, and says where)
export const ProfileFormSchema = ProfileInputSchema.extend({
  title: z.string().trim().min(1, 'A title is required.').max(255, 'At most 255 characters.'),
  description: z.string().trim().max(10_000, 'At most 10,000 characters.'),
  type: z.string().min(1, 'Choose a type.'),
  associated_type: list,
  sequencing_centre: list,
  ena_locus_tags: z.string().trim().max(500, 'At most 500 characters.'),
});
