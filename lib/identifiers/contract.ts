import { z } from 'zod';
import { OBJECT_ID, UUID } from './patterns';

/**
 * The shape of every identifier the service takes from a request, once: routes validate path and query values with
 * these schemas, domain functions check ids with the `is…` guards before a query, and the database's CHECK
 * constraints use the same patterns. A malformed id is a clear 4xx (or the same 404 as an unknown one), never a
 * database error.
 */

export { isProfileId, isSvcId, isUuid, PATTERNS } from './patterns';

export const UuidSchema = z.string().regex(UUID).meta({ description: 'a UUID', example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
export const SvcIdSchema = z
  .string()
  .regex(OBJECT_ID)
  .meta({ description: 'a sample’s svc_id: 24 lower-case hexadecimal characters', example: '67e14bbf5b9e8a38259f95eb' });
export const ProfileIdSchema = z
  .string()
  .regex(OBJECT_ID)
  .meta({ description: 'a profile id: 24 lower-case hexadecimal characters', example: '6571b2b6c4f5a2d1e0f3a9b8' });
