import { z } from 'zod';
import { DecisionRequestSchema } from '@/lib/samples/contract';

/** The review queue's rejection: the reason goes to the uploader, so a rejection must say why. */
export const RejectSchema = DecisionRequestSchema.pick({ reason: true }).extend({
  reason: z.string().trim().min(1, 'Say why the samples are rejected; the uploader reads it.').max(2000),
});
