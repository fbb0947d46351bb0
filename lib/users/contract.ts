import { z } from 'zod';
import { ASSOCIATED_TYPES } from '../profiles/enums';
import { TolProjectSchema } from '../projects/contract';

/**
 * Accounts: users as admins create and change them, the signed-in user, and API keys. The same field rules check the
 * API's bodies, the domain's inputs (createUser, updateUser, the first admin from the settings) and the Users page's
 * form, so the form refuses what the server would refuse, with its words.
 */

export const UsernameSchema = z
  .string()
  .trim()
  .min(1, 'username is required')
  .max(150)
  .regex(/^[\w.@+-]+$/, 'username may hold letters, digits and @ . + - _ only')
  .meta({ example: 'jane' });
export const PasswordSchema = z.string().min(8, 'password must have at least 8 characters').max(1024);
/** an address, or empty for none */
export const EmailSchema = z.union([z.literal(''), z.email('email is not a valid address')]);
const Projects = z.array(TolProjectSchema);

/** The associated types whose samples wait for an approval (lib/profiles/enums.ts): what a user can be named approver of. */
export const APPROVAL_TYPES = ASSOCIATED_TYPES.filter((a) => a.approvalRequired).map((a) => a.name) as [string, ...string[]];
export const ApprovalTypeSchema = z
  .enum(APPROVAL_TYPES, { error: `not an associated type that needs approval; one of ${APPROVAL_TYPES.join(', ')}` })
  .meta({ description: 'an associated project type whose samples need an approval' });
const ApprovalTypes = z.array(ApprovalTypeSchema);

// ---------------------------------------------------------------------------------------------------------------
// The domain's inputs (camelCase)

export const NewUserSchema = z.object({
  username: UsernameSchema,
  password: PasswordSchema,
  email: EmailSchema.default(''),
  isAdmin: z.boolean().default(false),
  memberOf: Projects.default([]),
  managerOf: Projects.default([]),
  approverOf: ApprovalTypes.default([]),
});
export type NewUser = z.input<typeof NewUserSchema>;

export const UserUpdateSchema = z.object({
  email: EmailSchema.optional(),
  password: PasswordSchema.optional(),
  isAdmin: z.boolean().optional(),
  isActive: z.boolean().optional(),
  memberOf: Projects.optional(),
  managerOf: Projects.optional(),
  approverOf: ApprovalTypes.optional(),
});
export type UserUpdate = z.input<typeof UserUpdateSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The API (snake_case)

export const UserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    email: z.string(),
    is_admin: z.boolean(),
    is_active: z.boolean(),
    member_of: Projects.meta({ description: 'Tree of Life projects the user belongs to' }),
    manager_of: Projects.meta({ description: 'Tree of Life projects whose samples the user manages (decides on)' }),
    approver_of: ApprovalTypes.meta({
      description: 'associated types whose approval the user gives: a sample waits for an approver of each of its types that needs one',
    }),
    created: z.iso.datetime(),
  })
  .meta({ id: 'User', description: 'A user, never their password' });
export type User = z.infer<typeof UserSchema>;

export const NewUserBodySchema = z
  .object({
    username: UsernameSchema,
    password: PasswordSchema,
    email: EmailSchema.default(''),
    is_admin: z.boolean().default(false),
    member_of: Projects.default([]),
    manager_of: Projects.default([]),
    approver_of: ApprovalTypes.default([]),
  })
  .meta({ id: 'NewUser' });
export type NewUserBody = z.input<typeof NewUserBodySchema>;

export const UserPatchBodySchema = z
  .object({
    email: EmailSchema.optional(),
    password: PasswordSchema.optional(),
    is_admin: z.boolean().optional(),
    is_active: z.boolean().optional(),
    member_of: Projects.optional(),
    manager_of: Projects.optional(),
    approver_of: ApprovalTypes.optional(),
  })
  .meta({ id: 'UserPatch', description: 'Only the fields sent change' });
export type UserPatchBody = z.input<typeof UserPatchBodySchema>;

export const UserParamsSchema = z.object({ id: z.coerce.number().int().positive().meta({ example: 12 }) });

// ---------------------------------------------------------------------------------------------------------------
// API keys

export const ApiKeyInfoSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().meta({ description: 'first characters of the key, to tell keys apart' }),
    created: z.iso.datetime(),
    last_used: z.iso.datetime().nullable(),
    revoked: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKeyInfo', description: 'An API key as listed: never the key itself' });
export type ApiKeyInfo = z.infer<typeof ApiKeyInfoSchema>;

export const NewApiKeySchema = ApiKeyInfoSchema.extend({
  key: z.string().meta({ description: 'the key; shown in this answer only', example: 'rmb_3q2…' }),
}).meta({ id: 'NewApiKey', description: 'A key just created, with the key itself' });
export type NewApiKey = z.infer<typeof NewApiKeySchema>;

export const NewApiKeyBodySchema = z.object({ name: z.string().trim().max(100).default('').meta({ example: 'laptop' }) });

export const ApiKeyParamsSchema = z.object({ id: z.coerce.number().int().positive().meta({ example: 3 }) });

const required = z.string({ error: 'This field is required.' }).min(1, 'This field is required.');

export const CredentialsSchema = z
  .object({
    username: required.meta({ example: 'jane' }),
    password: required.meta({ example: 'correct horse battery staple' }),
  })
  .meta({ id: 'Credentials' });

export const ApiKeyAnswerSchema = z
  .object({
    token: z.string().meta({ example: 'rmb_3q2…', description: 'the API key; send it as `Authorization: token <key>`' }),
    user_id: z.number().int(),
    email: z.string(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyAnswer = z.infer<typeof ApiKeyAnswerSchema>;
