import { currentDefinition, findDefinition } from '../lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';

/** Runs one SQL statement with positional parameters ($1, $2…) and returns its rows. */
export type Exec = (query: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface BulkOptions {
  samples: number;
  /** samples per manifest (a realistic upload holds a few hundred) */
  perManifest?: number;
  profiles?: number;
  /** distinct taxa */
  taxa?: number;
  /** rows per INSERT … SELECT generate_series statement */
  chunk?: number;
  /** a line of progress now and then */
  log?: (line: string) => void;
}

export interface BulkInfo {
  samples: number;
  manifests: number;
  profiles: number;
  taxa: number;
  /** the first sample's id, accession, taxon and manifest: values the benchmark looks up */
  probe: { svcId: string; biosampleAccession: string; taxonId: string; manifestId: string; scientificName: string };
}

const PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const;
const VARIANTS = 6;

/**
 * Fills samples (with their profiles, manifests and some audit rows) in bulk: each statement generates `chunk` rows
 * server-side with generate_series from a few realistic field templates built from the real manifest definitions
 * (all four projects, DTOL also at 2.4.1), varying ids, taxa, dates, accessions and statuses per row. Deterministic:
 * row g always gets the same values, so runs are comparable.
 */
export async function seedBulkSamples(exec: Exec, opts: BulkOptions): Promise<BulkInfo> {
  const perManifest = opts.perManifest ?? 500;
  const profiles = opts.profiles ?? 200;
  const taxa = opts.taxa ?? 2000;
  const chunk = opts.chunk ?? 50_000;
  const manifests = Math.ceil(opts.samples / perManifest);
  const log = opts.log ?? (() => {});

  const [owner] = await exec(`insert into users (username, email, password_hash) values ('bench-owner', '', 'x') returning id`);
  const ownerId = Number(owner?.id);

  // profile p: project PROJECTS[p % 4]; ERGA ones chose a centre and sub-projects
  await exec(
    `insert into profiles (id, owner_id, title, description, type, associated_types, sequencing_centres)
     select lpad(to_hex(p), 24, '0'), $1, 'Bench profile ' || p, 'Generated for the query benchmark',
            (array['asg','dtol','dtolenv','erga'])[p % 4 + 1],
            case p % 4 when 0 then '{ASG}'::text[] when 1 then '{DTOL}' when 2 then '{DTOL_ENV}' else '{BGE,ERGA_PILOT}' end,
            case p % 4 when 3 then array[(array['CNAG','SANGER','SCILIFE','GENOSCOPE'])[p % 16 / 4 + 1]] else '{}'::text[] end
     from generate_series(0, $2::int - 1) p`,
    [ownerId, profiles],
  );
  // manifest m belongs to profile m % profiles; DTOL manifests alternate between 2.5 and 2.4.1
  await exec(
    `insert into manifests (id, profile_id, project, version, sequencing_centres, file_name, created_by, created_at, updated_at)
     select md5('manifest' || m)::uuid, p.id, p.type,
            case when p.type = 'dtol' and m % 8 = 1 then '2.4.1' else (array['2.5','2.5','2.4','2.5.1'])[(m % $2::int) % 4 + 1] end,
            p.sequencing_centres, 'manifest_' || m || '.xlsx', $3,
            timestamptz '2020-01-01 00:00:00+00' + (m * $4::int) * interval '150 seconds',
            timestamptz '2020-01-01 00:00:00+00' + (m * $4::int) * interval '150 seconds'
     from generate_series(0, $1::int - 1) m
     join profiles p on p.id = lpad(to_hex(m % $2::int), 24, '0')`,
    [manifests, profiles, ownerId, perManifest],
  );

  // field templates: VARIANTS realistic rows per (project, version)
  await exec(`create temporary table bench_templates (project text, version text, k int, fields jsonb)`);
  for (const project of PROJECTS) {
    const versions = project === 'dtol' ? ['2.5', '2.4.1'] : [currentDefinition(project).version];
    for (const version of versions) {
      const def = findDefinition(project, version)!;
      for (let k = 0; k < VARIANTS; k++) {
        await exec(`insert into bench_templates values ($1, $2, $3, $4::jsonb)`, [project, version, k, JSON.stringify(validRow(def, k))]);
      }
    }
  }

  const started = Date.now();
  for (let from = 1; from <= opts.samples; from += chunk) {
    const to = Math.min(opts.samples, from + chunk - 1);
    await exec(
      `insert into samples (id, manifest_id, profile_id, project, manifest_version, status, fields, specimen_id,
         rack_or_plate_id, tube_or_well_id, taxon_id, scientific_name, symbiont, public_name, biosample_accession,
         sra_accession, submission_accession, sequencing_centres, associated_tol_projects, last_bioimage_submitted,
         created_by, time_created, time_updated)
       select s.id, m.id, m.profile_id, m.project, m.version, s.status,
              t.fields || jsonb_build_object('SERIES', s.series, 'SPECIMEN_ID', s.specimen, 'RACK_OR_PLATE_ID', s.rack,
                'TUBE_OR_WELL_ID', s.tube, 'TAXON_ID', s.taxon, 'SCIENTIFIC_NAME', s.sci),
              s.specimen, s.rack, s.tube, s.taxon, s.sci, 'TARGET',
              case when s.accepted then 'ilBench' || s.g end,
              case when s.accepted then 'SAMEA' || (7000000 + s.g) end,
              case when s.accepted then 'ERS' || (5000000 + s.g) end,
              case when s.accepted then 'ERA' || (3000000 + s.g / 500) end,
              p.sequencing_centres, p.associated_types,
              case when m.project = 'erga' and s.g % 97 = 0 then s.created + interval '30 days' end,
              $3, s.created, s.created + interval '1 hour'
       from (
         select g, substr(md5(g::text), 1, 24) as id, (g - 1) / $4::int as m, g % 10 < 7 as accepted,
                case when g % 10 < 7 then 'accepted' else 'pending' end as status,
                ((g - 1) % $4::int + 1)::text as series,
                'SAN' || lpad(g::text, 8, '0') as specimen,
                'FR' || lpad(((g - 1) / 96)::text, 8, '0') as rack,
                'FD' || lpad(g::text, 8, '0') as tube,
                (100000 + (g::bigint * 7919) % $5::int)::text as taxon,
                'Genus' || ((g::bigint * 7919) % $5::int / 10) || ' species' || ((g::bigint * 7919) % $5::int) as sci,
                timestamptz '2020-01-01 00:00:00+00' + g * interval '150 seconds' as created
         from generate_series($1::int, $2::int) g
       ) s
       join manifests m on m.id = md5('manifest' || s.m)::uuid
       join profiles p on p.id = m.profile_id
       join bench_templates t on t.project = m.project and t.version = m.version and t.k = s.g % ${VARIANTS}`,
      [from, to, ownerId, perManifest, taxa],
    );
    log(`  seeded ${to.toLocaleString('en')} samples (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }

  // a user update on every 20th sample
  await exec(
    `insert into sample_updates (sample_id, manifest_id, project, update_type, field, old_value, new_value, actor_id, time_updated)
     select s.id, s.manifest_id, s.project, case when g % 40 = 0 then 'system' else 'user' end, 'SEX', 'MALE', 'FEMALE', $2,
            s.time_created + interval '2 days'
     from generate_series(20, $1::int, 20) g
     join samples s on s.id = substr(md5(g::text), 1, 24)`,
    [opts.samples, ownerId],
  );
  await exec('analyze');

  const [probe] = await exec(
    `select id, biosample_accession, taxon_id, manifest_id::text as manifest_id, scientific_name from samples where id = substr(md5('1'), 1, 24)`,
  );
  return {
    samples: opts.samples,
    manifests,
    profiles,
    taxa,
    probe: {
      svcId: String(probe?.id),
      biosampleAccession: String(probe?.biosample_accession),
      taxonId: String(probe?.taxon_id),
      manifestId: String(probe?.manifest_id),
      scientificName: String(probe?.scientific_name),
    },
  };
}

/** An Exec on the database's own driver (postgres-js or PGlite), bypassing Drizzle. */
export function execFor(database: {
  kind: 'pglite' | 'postgres';
  pglite?: { query: (q: string, p?: unknown[]) => Promise<{ rows: unknown[] }> };
  sql?: { unsafe: (q: string, p?: never[]) => PromiseLike<unknown[]> };
}): Exec {
  if (database.kind === 'postgres' && database.sql) {
    const sql = database.sql;
    return async (q, p = []) => (await sql.unsafe(q, p as never[])) as Record<string, unknown>[];
  }
  const pglite = database.pglite;
  if (!pglite) throw new Error('no database driver');
  return async (q, p = []) => (await pglite.query(q, p)).rows as Record<string, unknown>[];
}

/** Like execFor, rows as arrays in select order (Drizzle's SQL leaves repeated expressions unnamed). */
export function execArraysFor(database: Parameters<typeof execFor>[0]): (query: string, params?: unknown[]) => Promise<unknown[][]> {
  if (database.kind === 'postgres' && database.sql) {
    const sql = database.sql as unknown as { unsafe: (q: string, p?: never[]) => { values: () => Promise<unknown[][]> } };
    return (q, p = []) => sql.unsafe(q, p as never[]).values();
  }
  const pglite = database.pglite as unknown as {
    query: (q: string, p: unknown[], o: { rowMode: 'array' }) => Promise<{ rows: unknown[][] }>;
  };
  if (!pglite) throw new Error('no database driver');
  return async (q, p = []) => (await pglite.query(q, p, { rowMode: 'array' })).rows;
}
