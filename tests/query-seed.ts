import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import {
  manifests,
  profileFiles,
  profiles,
  type SampleStatus,
  samples,
  sampleUpdates,
  submissions,
  type TolProject,
  users,
} from '@/db/schema';
import { findDefinition } from '@/lib/manifests';
import { typedColumns } from '@/lib/samples/columns';
import { validRow } from './fixtures/manifests/generate';

/**
 * Realistic stored samples for the query API tests, written straight into the tables with Drizzle (the upload flow is
 * tested elsewhere): DTOL, ERGA and ASG manifests of several versions built from the real definitions, accessioned
 * and pending samples, an embargoed ERGA sample, a bioimage, and audit rows (one about a sensitive field).
 */

export interface SeedSample {
  id: string;
  manifestId: string;
  project: TolProject;
  fields: Record<string, string>;
  status: SampleStatus;
  biosampleAccession: string | null;
  publicName: string | null;
  timeCreated: Date;
}

export interface QuerySeed {
  userIds: number[];
  profiles: { nhm: string; cnag: string; asg: string; tk: string };
  manifests: { dtol: string; dtolOld: string; erga: string; asg: string; tk: string };
  samples: SeedSample[];
  /** the sample under traditional-knowledge rights */
  embargoed: string;
}

const hex = (n: number, prefix: string) => `${prefix}${n.toString(16).padStart(24 - prefix.length, '0')}`;

export async function seedQueryData(db: Db): Promise<QuerySeed> {
  const [owner] = await db
    .insert(users)
    .values([
      { username: `query-owner-${randomUUID().slice(0, 8)}`, email: 'owner@example.org', passwordHash: 'x' },
      { username: `query-other-${randomUUID().slice(0, 8)}`, email: 'other@example.org', passwordHash: 'x' },
    ])
    .returning({ id: users.id });
  const ownerId = owner!.id;

  const p = { nhm: hex(1, 'aa'), cnag: hex(2, 'aa'), asg: hex(3, 'aa'), tk: hex(4, 'aa') };
  await db.insert(profiles).values([
    {
      id: p.nhm,
      ownerId,
      title: 'NHM Lepidoptera 2024',
      description: 'Butterflies and moths of Wytham Woods',
      type: 'dtol',
      associatedTypes: ['DTOL'],
    },
    {
      id: p.cnag,
      ownerId,
      title: 'CNAG ERGA pilot',
      description: 'Catalan reference genomes',
      type: 'erga',
      associatedTypes: ['BGE', 'ERGA_PILOT'],
      sequencingCentres: ['CNAG'],
    },
    { id: p.asg, ownerId, title: 'ASG symbionts', description: 'Aquatic symbioses', type: 'asg', associatedTypes: ['ASG'] },
    {
      id: p.tk,
      ownerId,
      title: 'ERGA traditional knowledge',
      description: '',
      type: 'erga',
      associatedTypes: ['BGE', 'SANGER'],
      sequencingCentres: ['SANGER'],
    },
  ]);

  const m = {
    dtol: 'f8e5c23d-f735-439f-bfaf-a6886e31741e',
    dtolOld: '1b2c3d4e-0000-4000-8000-000000000001',
    erga: '2c3d4e5f-0000-4000-8000-000000000002',
    asg: '3d4e5f60-0000-4000-8000-000000000003',
    tk: '4e5f6071-0000-4000-8000-000000000004',
  };
  const plan: {
    id: string;
    profile: string;
    project: TolProject;
    version: string;
    at: string;
    n: number;
    first: number;
    centres: string[];
  }[] = [
    { id: m.dtolOld, profile: p.nhm, project: 'dtol', version: '2.4.1', at: '2023-06-01T09:00:00Z', n: 2, first: 100, centres: [] },
    { id: m.dtol, profile: p.nhm, project: 'dtol', version: '2.5', at: '2024-03-14T10:21:33.512Z', n: 4, first: 0, centres: [] },
    { id: m.asg, profile: p.asg, project: 'asg', version: '2.5', at: '2024-11-01T12:00:00Z', n: 2, first: 200, centres: [] },
    { id: m.erga, profile: p.cnag, project: 'erga', version: '2.5.1', at: '2025-01-03T10:00:00Z', n: 3, first: 300, centres: ['CNAG'] },
    { id: m.tk, profile: p.tk, project: 'erga', version: '2.5.1', at: '2025-02-01T08:30:00Z', n: 2, first: 400, centres: ['SANGER'] },
  ];
  await db.insert(manifests).values(
    plan.map((x) => ({
      id: x.id,
      profileId: x.profile,
      project: x.project,
      version: x.version,
      sequencingCentres: x.centres,
      fileName: `${x.project}_manifest.xlsx`,
      createdBy: ownerId,
      createdAt: new Date(x.at),
      updatedAt: new Date(x.at),
    })),
  );

  const stored: SeedSample[] = [];
  let embargoed = '';
  let n = 0;
  for (const x of plan) {
    const def = findDefinition(x.project, x.version);
    if (!def) throw new Error(`no definition ${x.project} ${x.version}`);
    const profile = { [p.nhm]: ['DTOL'], [p.cnag]: ['BGE', 'ERGA_PILOT'], [p.asg]: ['ASG'], [p.tk]: ['BGE', 'SANGER'] }[x.profile] ?? [];
    for (let i = 0; i < x.n; i++) {
      n += 1;
      const fields = validRow(def, x.first + i);
      const id = hex(n, 'bb');
      const accepted = i % 2 === 0;
      // the GAL of these ERGA rows names an ASCII centre, so centre matching does not depend on the server's locale
      if (x.id === m.tk) fields.GAL = 'SANGER INSTITUTE';
      if (x.id === m.tk && i === 0) {
        fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE = 'Y';
        fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID = 'tk-project-7';
        fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_CONTACT = 'elder@example.org';
        embargoed = id;
      }
      const timeCreated = new Date(Date.parse(x.at) + i * 1000);
      const status: SampleStatus = id === embargoed ? 'private' : accepted ? 'accepted' : 'pending';
      const row = {
        id,
        manifestId: x.id,
        profileId: x.profile,
        project: x.project,
        manifestVersion: x.version,
        status,
        fields,
        ...typedColumns(fields),
        publicName: accepted ? `ilAglIoxx${n}` : null,
        biosampleAccession: accepted ? `SAMEA75199${String(n).padStart(2, '0')}` : null,
        sraAccession: accepted ? `ERS52835${String(n).padStart(2, '0')}` : null,
        submissionAccession: accepted ? 'ERA3197433' : null,
        sequencingCentres: x.centres,
        associatedTolProjects: profile,
        approvals: accepted ? { DTOL: { user_id: ownerId, date: '2024-03-15' } } : {},
        rejectionReason: accepted ? null : 'Sample rejected by curator.',
        lastBioimageSubmitted: x.id === m.erga && i === 0 ? new Date('2025-02-03T09:00:00Z') : null,
        createdBy: ownerId,
        timeCreated,
        timeUpdated: new Date(timeCreated.getTime() + 60_000),
      };
      await db.insert(samples).values(row);
      stored.push({
        id,
        manifestId: x.id,
        project: x.project,
        fields,
        status,
        biosampleAccession: row.biosampleAccession,
        publicName: row.publicName,
        timeCreated,
      });
    }
  }

  const first = stored[0]!;
  const erga = stored.find((s) => s.manifestId === m.erga)!;
  await db.insert(sampleUpdates).values([
    {
      sampleId: first.id,
      manifestId: first.manifestId,
      project: 'dtol',
      updateType: 'user',
      field: 'SEX',
      oldValue: 'MALE',
      newValue: 'FEMALE',
      actorId: ownerId,
      timeUpdated: new Date('2025-03-14T10:21:33Z'),
    },
    {
      sampleId: first.id,
      manifestId: first.manifestId,
      project: 'dtol',
      updateType: 'system',
      field: 'biosampleAccession',
      oldValue: '',
      newValue: first.biosampleAccession,
      timeUpdated: new Date('2024-03-20T08:00:00Z'),
    },
    {
      sampleId: erga.id,
      manifestId: erga.manifestId,
      project: 'erga',
      updateType: 'user',
      field: 'SCIENTIFIC_NAME',
      oldValue: 'Aglais urticae',
      newValue: 'Aglais io',
      actorId: ownerId,
      timeUpdated: new Date('2025-04-01T00:00:00Z'),
    },
    // sensitive: must never be listed
    {
      sampleId: erga.id,
      manifestId: erga.manifestId,
      project: 'erga',
      updateType: 'user',
      field: 'COLLECTOR_ORCID_ID',
      oldValue: '0000-0002-1825-0097',
      newValue: '0000-0001-5109-3700',
      actorId: ownerId,
      timeUpdated: new Date('2025-04-01T00:00:01Z'),
    },
  ]);
  await db.insert(profileFiles).values([{ profileId: p.nhm, fileName: 'run1_R1.fastq.gz', sizeInBytes: 1234, etag: 'abc' }]);
  await db.insert(submissions).values([{ kind: 'samples', repository: 'ena', profileId: p.nhm, status: 'accepted' }]);

  return { userIds: [ownerId], profiles: p, manifests: m, samples: stored, embargoed };
}
