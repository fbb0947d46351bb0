import { z } from 'zod';
import { TolProjectSchema } from '../projects/contract';
import { AssociatedTypeNameSchema } from '../reference/contract';

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

/** ISO 7064 MOD 11-2, the check character ORCID puts last: catches a mistyped or swapped digit. */
function orcidChecksumOk(id: string): boolean {
  const digits = id.replaceAll('-', '');
  let total = 0;
  for (const d of digits.slice(0, -1)) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  return digits.at(-1) === (check === 10 ? 'X' : String(check));
}

/** An ORCID iD as ORCID's id tokens carry it (`sub`): four groups of four digits, the last character may be X. */
export const OrcidIdSchema = z
  .string()
  .regex(/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/, 'not an ORCID iD (0000-0002-1825-0097)')
  .refine(orcidChecksumOk, 'not an ORCID iD: its check digit does not match')
  .meta({ example: '0000-0002-1825-0097' });

/**
 * An associated type whose samples wait for an approval: what a user can be named approver of. Which types need one
 * is reference data administrators edit (lib/reference), so the shape is checked here and the type by createUser and
 * updateUser.
 */
export const ApprovalTypeSchema = AssociatedTypeNameSchema.meta({
  description: 'an associated project type whose samples need an approval (approval_required in GET /api/admin/associated-types)',
});
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
  /** null unlinks the ORCID iD; an iD is only ever linked by signing in with ORCID */
  orcidId: z.null().optional(),
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
    orcid_id: OrcidIdSchema.nullable().meta({ description: 'the person’s ORCID iD, linked by signing in with ORCID; null when none' }),
    full_name: z.string().meta({ description: 'the name the person goes by, as ORCID gave it; empty when unknown' }),
  })
  .meta({ id: 'User', description: 'A user, never their password' });
export type User = z.infer<typeof UserSchema>;

/** What a profile's owner gives another user, or a group, on it (profile_shares.role). */
export const SHARE_ROLES = ['viewer', 'contributor'] as const;
export type ShareRole = (typeof SHARE_ROLES)[number];
export const ShareRoleSchema = z.enum(SHARE_ROLES).meta({
  id: 'ShareRole',
  description:
    'viewer: sees the profile and everything of it; contributor: also uploads and confirms manifests, uploads studies and data files, submits studies',
});

/** A user as the admin's list shows them: with the groups they are in and the profiles shared with them. */
export const AdminUserSchema = UserSchema.extend({
  groups: z.array(z.string()).meta({ description: 'the names of the groups the user is a member of' }),
  shared_profiles: z
    .array(
      z.object({
        id: z.string(),
        title: z.string(),
        role: ShareRoleSchema,
        via: z.string().nullable().meta({ description: 'the group it is shared with them through; null when with them directly' }),
      }),
    )
    .meta({ description: 'the profiles others shared with the user' }),
  locked_until: z.iso.datetime().nullable().meta({
    description:
      'until when failed sign-ins lock the account (from at least one address); null when not locked. An unlock or a new password lifts it',
  }),
}).meta({ id: 'AdminUser', description: 'A user as an administrator sees them, never their password' });
export type AdminUser = z.infer<typeof AdminUserSchema>;

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
    orcid_id: z.null().optional().meta({
      description: 'null unlinks the user’s ORCID iD; an iD is linked only by its owner signing in with ORCID',
    }),
  })
  .meta({ id: 'UserPatch', description: 'Only the fields sent change' });
export type UserPatchBody = z.input<typeof UserPatchBodySchema>;

export const UserParamsSchema = z.object({ id: z.coerce.number().int().positive().meta({ example: 12 }) });

/** The admin's search of the users list: a part of a username, an email address, a name or an ORCID iD, any case. */
export const UserSearchSchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, 'the search may have at most 200 characters')
    .optional()
    .meta({ description: 'only users whose username, email, full name or ORCID iD contains this, in any case', example: 'jane' }),
});

// ---------------------------------------------------------------------------------------------------------------
// Password reset by email (lib/auth/password-reset.ts)

/** How long the link of a reset email works. */
export const RESET_LINK_HOURS = 1;

export const PasswordResetRequestSchema = z
  .object({
    login: z
      .string({ error: 'Give your username or email address.' })
      .trim()
      .min(1, 'Give your username or email address.')
      .max(320)
      .meta({ description: 'the username or the email address of the account', example: 'jane' }),
  })
  .meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.input<typeof PasswordResetRequestSchema>;

export const PasswordResetSchema = z
  .object({
    token: z.string({ error: 'The link has no token.' }).min(1, 'The link has no token.').max(200),
    password: PasswordSchema,
  })
  .meta({ id: 'PasswordReset', description: 'The token of a reset email’s link and the new password' });

/**
 * A new password typed twice, as the portal's forms take it (the admin's "Set password" and the reset page); named
 * apart from `password` because a form's fields are named by their ids, and the Users page's add form has one.
 */
export const NewPasswordFormSchema = z
  .object({ new_password: PasswordSchema, confirm_password: z.string() })
  .refine((v) => v.new_password === v.confirm_password, {
    path: ['confirm_password'],
    message: 'The two passwords differ: type the same one twice.',
  });

/** The same answer whether or not an account matched: nobody learns from it which names or addresses have one. */
export const PASSWORD_RESET_SENT = `If an account matches, we have sent a link to its email address. The link works for ${RESET_LINK_HOURS} hour and only once.`;

export const PasswordResetAnswerSchema = z
  .object({ detail: z.string().meta({ example: PASSWORD_RESET_SENT }) })
  .meta({ id: 'PasswordResetAnswer' });

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
