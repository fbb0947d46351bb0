import { z } from 'zod';
import { AcceptanceTextSchema } from '../reference/contract';

/**
 * The admin's preview of an acceptance email (lib/mail/acceptance-email.ts). What an associated type's acceptance
 * text may say, its placeholders among it, is the associated type's contract (lib/reference/contract.ts), so that
 * saving and previewing refuse the same texts.
 */

export const AssociatedTypeNameParamsSchema = z.object({
  name: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/, 'not an associated type name')
    .meta({ example: 'BGE' }),
});

export const AcceptancePreviewBodySchema = z.object({ acceptance_text: AcceptanceTextSchema }).meta({ id: 'AcceptancePreviewRequest' });

export const AcceptancePreviewSchema = z
  .object({
    subject: z.string(),
    text: z.string().meta({ description: 'the plain-text part' }),
    html: z.string().meta({ description: 'the HTML part: a whole document, with no script and only http, https and mailto links' }),
    cc: z.array(z.string()).meta({ description: 'the example centre contacts the email is copied to' }),
  })
  .meta({ id: 'AcceptancePreview' });
export type AcceptancePreview = z.infer<typeof AcceptancePreviewSchema>;
