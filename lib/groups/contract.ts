import { z } from 'zod';

/** Groups: sets of people a profile is shared with at once (lib/profiles/access.ts). */

export const GroupIdSchema = z.coerce.number().int().positive().meta({ description: 'a group’s id', example: 7 });

export const GroupParamsSchema = z.object({ group_id: GroupIdSchema });
export const GroupMemberParamsSchema = z.object({
  group_id: GroupIdSchema,
  username: z.string().min(1).max(150).meta({ description: 'a member’s username' }),
});

export const GroupSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    owner: z.string().meta({ description: 'the username of the group’s owner, who adds and removes its members' }),
    members: z.array(z.string()).meta({ description: 'the members’ usernames, the owner among them' }),
    role: z.enum(['owner', 'member', 'admin']).meta({ description: 'the caller’s place in the group' }),
    date_created: z.string().meta({ description: 'ISO 8601' }),
  })
  .meta({ id: 'Group', description: 'a group of people profiles can be shared with' });
export type Group = z.infer<typeof GroupSchema>;

const trimmed = (max: number) => z.string().trim().min(1).max(max);

export const NewGroupSchema = z
  .object({ name: trimmed(100).meta({ description: 'unique among the caller’s groups', example: 'Darwin lab' }) })
  .strict()
  .meta({ id: 'NewGroup' });
export type NewGroup = z.infer<typeof NewGroupSchema>;

export const NewMemberSchema = z
  .object({ username: trimmed(150).meta({ description: 'the person to add' }) })
  .strict()
  .meta({ id: 'NewGroupMember' });
export type NewMember = z.infer<typeof NewMemberSchema>;
