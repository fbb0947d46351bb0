import { z } from 'zod';
import { CentreContactSchema, NewSequencingCentreBodySchema } from '@/lib/reference/contract';

/** The contacts' lines as the API's list, checked by the API's own rules; a refusal names its line. */
const ContactsText = z.string().transform((text, ctx) => {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [name = '', email = '', ...role] = line.split(';').map((p) => p.trim());
      return { name, email, role: role.join('; ') };
    });
  const checked = z.array(CentreContactSchema).max(50, 'at most 50 contacts').safeParse(lines);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const line = typeof issue?.path[0] === 'number' ? `Line ${issue.path[0] + 1}: ` : '';
  ctx.addIssue({ code: 'custom', message: `${line}${issue?.message ?? 'not a list of contacts'}` });
  return z.NEVER;
});

export const AddCentreSchema = NewSequencingCentreBodySchema.omit({ contacts: true }).extend({ contacts: ContactsText });
export const EditCentreSchema = NewSequencingCentreBodySchema.pick({ label: true, approval_required: true, selectable: true }).extend({
  contacts: ContactsText,
});
