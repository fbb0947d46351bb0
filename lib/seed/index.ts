import type { Db } from '@/db/client';
import { seedChecklists } from './checklists';
import { seedManifestDefinitions } from './manifest-definitions';
import { seedSampleChecklists } from './sample-checklists';

/** Reference data every instance needs; idempotent, so it runs on every start after the migrations. */
export async function seedReferenceData(db: Db): Promise<void> {
  await seedChecklists(db);
  await seedManifestDefinitions(db);
  await seedSampleChecklists(db);
}
