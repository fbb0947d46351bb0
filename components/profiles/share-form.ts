import { z } from 'zod';
import { ShareRoleSchema } from '@/lib/profiles/contract';
import { PERSON } from './share-choice';

// the API takes a person or a group (lib/profiles/contract.ts NewShareSchema); the form picks one of them first
export const ShareFormSchema = z
  .object({ with: z.string().min(1), username: z.string().trim().max(150), role: ShareRoleSchema })
  .superRefine((v, ctx) => {
    if (v.with === PERSON && !v.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'Enter the username of the person' });
  });
