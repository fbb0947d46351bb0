import { z } from 'zod';
import { TOL_PROJECTS } from '@/lib/projects';

/** Shared by the server and the Users page, so the form refuses what the server would refuse, with its words. */
const projectList = z.array(z.enum(TOL_PROJECTS)).default([]);

export const NewUserSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'username is required')
    .max(150)
    .regex(/^[\w.@+-]+$/, 'username may hold letters, digits and @ . + - _ only'),
  password: z.string().min(8, 'password must have at least 8 characters').max(1024),
  email: z.union([z.literal(''), z.email('email is not a valid address')]).default(''),
  isAdmin: z.boolean().default(false),
  memberOf: projectList,
  managerOf: projectList,
});
export type NewUser = z.input<typeof NewUserSchema>;

export const UserUpdateSchema = z.object({
  email: z.union([z.literal(''), z.email('email is not a valid address')]).optional(),
  password: z.string().min(8, 'password must have at least 8 characters').max(1024).optional(),
  isAdmin: z.boolean().optional(),
  isActive: z.boolean().optional(),
  memberOf: z.array(z.enum(TOL_PROJECTS)).optional(),
  managerOf: z.array(z.enum(TOL_PROJECTS)).optional(),
});
export type UserUpdate = z.input<typeof UserUpdateSchema>;

