import { z } from 'zod';
import { QueueHealthSchema } from '../jobs/contract';
import { ServiceCheckSchema } from '../samples/contract';

/** What GET /api/health answers: each part of the service checked within three seconds, and the services configured. */

export const CheckSchema = z.object({
  ok: z.boolean(),
  latency_ms: z.number(),
  error: z.string().optional().meta({ description: 'why it is not ok' }),
});
export type Check = z.infer<typeof CheckSchema>;

export const ServiceStateSchema = z.object({
  configured: z.boolean(),
  detail: z.string().meta({ description: 'what is used, or what its absence means' }),
});

/** The external services the settings reach (ENA, the ToLID service, Zenodo, mail). */
export const ExternalServicesSchema = z
  .object({ ena: ServiceStateSchema, tolid: ServiceStateSchema, zenodo: ServiceStateSchema, mail: ServiceStateSchema })
  .meta({ id: 'ExternalServices' });

export const HealthQuerySchema = z.object({
  deep: z.enum(['true', 'false']).default('false').meta({ description: 'true: check the queue and the storage now' }),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']).meta({
      description: 'ok: everything answers; degraded: the database answers but the queue or the storage does not; down: no database',
    }),
    checked_at: z.iso.datetime().meta({
      description: 'when the queue and the storage were checked: at most a few seconds ago, or now with `deep=true`',
    }),
    database: CheckSchema.extend({ kind: z.enum(['pglite', 'postgres']) }),
    // the queue's figures are there when it answered
    queue: CheckSchema.extend(QueueHealthSchema.partial().shape),
    storage: CheckSchema.extend({ kind: z.enum(['local', 's3']) }),
    services: ExternalServicesSchema,
    // read from service_checks, written by the hourly rights check: health never calls the hub
    local_contexts: ServiceCheckSchema.meta({
      description: 'the Local Contexts Hub at its last look-up (rights of private ERGA samples); it does not change `status`',
    }),
    ena_checklists: ServiceCheckSchema.meta({
      description: 'the last read of ENA’s checklists (daily): while it fails, the copy read before is used',
    }),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;
