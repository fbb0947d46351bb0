import { z } from 'zod';

/**
 * The shape of every identifier the service takes from a request, once: routes validate path and query values with
 * these schemas, domain functions check ids with the `is…` guards before a query, and the database's CHECK
 * constraints use the same patterns. A malformed id is a clear 4xx (or the same 404 as an unknown one), never a
 * database error.
 */

export const PATTERNS = {
  /** RFC 4122 text form, any case: reports, manifests, submissions, dead letters */
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  /** the reference system's ObjectId shape: sample (svc_id) and profile ids */
  objectId: '[0-9a-f]{24}',
  /** an NCBI taxon id */
  taxonId: '[1-9][0-9]{0,9}',
  /** a BioSamples accession: SAMEA…, SAMN…, SAMD… */
  biosampleAccession: 'SAM[EDN][A-Z]?[0-9]+',
} as const;

const whole = (pattern: string) => new RegExp(`^${pattern}$`);
// one expression per shape, for the schemas and the guards below: a guard tests it directly (a schema's safeParse
// builds a result object each time, on a one-record look-up's hot path; docs/benchmarks.md)
const UUID = whole(PATTERNS.uuid);
const OBJECT_ID = whole(PATTERNS.objectId);

export const UuidSchema = z.string().regex(UUID).meta({ description: 'a UUID', example: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
export const SvcIdSchema = z
  .string()
  .regex(OBJECT_ID)
  .meta({ description: 'a sample’s svc_id: 24 lower-case hexadecimal characters', example: '67e14bbf5b9e8a38259f95eb' });
export const ProfileIdSchema = z
  .string()
  .regex(OBJECT_ID)
  .meta({ description: 'a profile id: 24 lower-case hexadecimal characters', example: '6571b2b6c4f5a2d1e0f3a9b8' });

export const BiosampleAccessionSchema = z
  .string()
  .regex(whole(PATTERNS.biosampleAccession))
  .meta({ description: 'a BioSamples accession', example: 'SAMEA7524530' });

export const isUuid = (v: string): boolean => UUID.test(v);
export const isSvcId = (v: string): boolean => OBJECT_ID.test(v);
export const isProfileId = (v: string): boolean => OBJECT_ID.test(v);
