import { z } from 'zod';
import { ExternalServicesSchema } from '../health/contract';
import { TolProjectSchema } from '../projects/contract';
import { DateQuerySchema } from '../query/contract';

/** The statistics endpoints: bare counts as the reference answers them, and the dashboard's summary. */

export const CountSchema = z.number().int().min(0).meta({ description: 'a bare JSON number, as the reference answers' });

export const SampleCountQuerySchema = DateQuerySchema;
export const SampleTypeParamsSchema = z.object({
  sample_type: z.string().meta({ description: 'ASG, DTOL, DTOLENV or ERGA (any case)', example: 'dtol' }),
});

const CountsByStatusSchema = z
  .record(z.string(), z.number().int())
  .meta({ description: 'status → how many; statuses with none are left out' });

export const StatsSummarySchema = z
  .object({
    users: z.number().int(),
    profiles: z.number().int(),
    datafiles: z.number().int(),
    samples: z.object({
      total: z.number().int(),
      by_project: z
        .partialRecord(TolProjectSchema, z.object({ total: z.number().int(), by_status: CountsByStatusSchema }))
        .meta({ description: 'projects with no samples are left out' }),
      per_month: z.array(z.object({ month: z.string().meta({ example: '2025-01' }), count: z.number().int() })),
    }),
    manifests: z.object({
      total: z.number().int(),
      per_sequencing_centre: z.array(
        z.object({
          sequencing_centre: z.string().meta({ example: 'SANGER' }),
          label: z.string().meta({ example: 'SANGER INSTITUTE' }),
          manifests: z.number().int(),
        }),
      ),
    }),
    submissions: z.object({ total: z.number().int(), by_status: CountsByStatusSchema }),
    services: ExternalServicesSchema,
  })
  .meta({ id: 'StatsSummary', description: 'Aggregate counts only' });
export type StatsSummary = z.infer<typeof StatsSummarySchema>;
