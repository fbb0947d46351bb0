import { z } from 'zod';
import { ExternalServicesSchema } from '../health/contract';
import { TolProjectSchema } from '../projects/contract';
import { DateQuerySchema } from '../query/contract';
import { NONE_GIVEN } from './none-given';

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
      per_sequencing_centre: z
        .array(
          z.object({
            sequencing_centre: z.string().meta({ example: 'SANGER' }),
            label: z.string().meta({ example: 'SANGER INSTITUTE' }),
            manifests: z.number().int(),
          }),
        )
        .meta({
          description:
            'manifests naming each centre: one naming two centres is counted under both and one naming none under none, so ' +
            'these need not add up to total (by_sequencing_centres does)',
        }),
      by_sequencing_centres: z
        .array(
          z.object({
            sequencing_centres: z.array(z.string()).meta({ description: 'sorted; empty: the manifest names none', example: ['SANGER'] }),
            label: z
              .string()
              .meta({ description: `the centres' labels joined by "and"; "${NONE_GIVEN}" for none`, example: 'SANGER INSTITUTE' }),
            manifests: z.number().int(),
          }),
        )
        .meta({
          description:
            'each manifest once, under the set of centres it names (one centre, then several, then none given last): these add up to total',
        }),
    }),
    submissions: z.object({ total: z.number().int(), by_status: CountsByStatusSchema }),
    services: ExternalServicesSchema,
  })
  .meta({ id: 'StatsSummary', description: 'Aggregate counts only' });
export type StatsSummary = z.infer<typeof StatsSummarySchema>;

/**
 * The public dashboard (`/dashboard`, `GET stats/dashboard`): public samples only (no private sample, none embargoed
 * under traditional-knowledge rights), counted at most DASHBOARD_CACHE_SECONDS before it is read.
 */
export const PublicDashboardSchema = z
  .object({
    generated: z.string().meta({ description: 'when the figures were counted (ISO 8601, UTC)', example: '2026-11-26T14:00:00.000Z' }),
    cache_seconds: z.number().int().meta({ description: 'how long the same figures are answered again' }),
    samples: z.number().int().meta({
      description:
        'public samples held by the broker, whatever their state (awaiting review, rejected, registered…): by_project.by_status says which',
    }),
    registered: z.number().int().meta({ description: 'public samples registered at ENA (with a BioSample accession)' }),
    by_project: z
      .array(z.object({ project: TolProjectSchema, total: z.number().int(), by_status: CountsByStatusSchema }))
      .meta({ description: 'projects with public samples, in alphabetical order: the samples held, by state' }),
    per_month: z
      .array(
        z.object({
          month: z.string().meta({ example: '2025-01' }),
          by_project: z.partialRecord(TolProjectSchema, z.number().int()),
          registered: z.number().int().meta({ description: 'samples registered at ENA in this month' }),
        }),
      )
      .meta({
        description:
          'samples registered at ENA per month of their registration, oldest first; months with none are left out; these add up to registered',
      }),
    top_taxa: z
      .array(z.object({ scientific_name: z.string(), taxon_id: z.string(), samples: z.number().int() }))
      .meta({ description: 'the taxa with the most samples, most first' }),
    samples_of_other_taxa: z.number().int().meta({
      description: 'public samples of a taxon not in top_taxa: with these and samples_without_taxon, top_taxa adds up to samples',
    }),
    samples_without_taxon: z.number().int().meta({ description: 'public samples whose SCIENTIFIC_NAME is empty (none given)' }),
    places: z
      .array(
        z.object({
          latitude: z.number().meta({ description: 'the middle of a one-degree square, e.g. 51.5' }),
          longitude: z.number(),
          samples: z.number().int(),
        }),
      )
      .meta({ description: 'where samples were collected: DECIMAL_LATITUDE and DECIMAL_LONGITUDE by one-degree square, most first' }),
    samples_without_place: z
      .number()
      .int()
      .meta({
        description:
          'public samples on no square: no decimal latitude and longitude on the globe (empty, or e.g. NOT_COLLECTED); the ' +
          'squares’ samples and these add up to samples',
      }),
  })
  .meta({ id: 'PublicDashboard', description: 'Aggregate counts of public samples only' });
export type PublicDashboard = z.infer<typeof PublicDashboardSchema>;
