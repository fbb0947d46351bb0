import { z } from 'zod';

/**
 * A sample's approvals at the boundary: what samples.approvals keeps and what a reviewer is shown. Declared with the
 * approvals, below the samples, the mail and the permits that read them.
 */

/** The approvals of a sample, by associated project type (samples.approvals): {"DTOL": {"user_id": 3, "date": "…"}}. */
export const SampleApprovalsSchema = z.record(z.string(), z.object({ user_id: z.number().int(), date: z.string() }));
// Partial: a type is approved or absent, which is also what `{}` written beside `{ DTOL: … }` infers as
export type SampleApprovals = Partial<z.infer<typeof SampleApprovalsSchema>>;

/** An approval a sample carries: which associated type, who gave it and when. */
export const ApprovalGivenSchema = z
  .object({
    associated_type: z.string().meta({ example: 'ERGA_COMMUNITY' }),
    user_id: z.number().int(),
    approved_by: z.string().nullable().meta({ description: 'the approver’s username (null: the user is gone)' }),
    approved_at: z.string().meta({ description: 'when (ISO 8601)' }),
  })
  .meta({ id: 'ApprovalGiven' });
export type ApprovalGiven = z.infer<typeof ApprovalGivenSchema>;
