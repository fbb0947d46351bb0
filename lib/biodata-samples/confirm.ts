import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { biodataSamples, biodataSampleUpdates } from '@/db/schema';
import { Conflict } from '@/lib/errors';
import type { JobQueue } from '@/lib/jobs/queue';
import type { FieldChange, ParsedRow } from '@/lib/manifests/contract';
import { newSampleId } from '@/lib/samples/columns';
import { queueBiodataRegistration } from './queue';
import { ALIAS, SCIENTIFIC_NAME, TAXON_ID } from './sheet';

/**
 * A confirmed sample sheet written into the profile, in the caller's transaction (lib/reports/confirm.ts, which has
 * locked the profile, checked the report still matches its samples and claimed the report): each new row a sample
 * (confirmed: kept here until its owner registers it), each changed one updated with a `user` history row per field.
 * A changed sample ENA already holds is sent again at once (MODIFY), so that the archive has what the broker has.
 */

const INSERT_BATCH = 500;

/** A row's values as a sample keeps them: the checklist's fields and units, without the columns it has of its own. */
function fieldsOf(values: Record<string, string>): Record<string, string> {
  const { [ALIAS]: _alias, [TAXON_ID]: _taxonId, [SCIENTIFIC_NAME]: _name, ...fields } = values;
  return fields;
}

export async function writeConfirmedSamples(
  tx: Db,
  jobs: JobQueue,
  input: {
    userId: number;
    profileId: string;
    checklistId: string;
    reportId: string;
    rows: ParsedRow[];
    matches: { row: number; sampleId: string }[];
    changes: FieldChange[];
  },
): Promise<{ created: number; updated: number }> {
  const matched = new Set(input.matches.map((m) => m.row));
  const fresh = input.rows
    .filter((r) => !matched.has(r.rowNumber))
    .map((r) => ({
      id: newSampleId(),
      profileId: input.profileId,
      checklistId: input.checklistId,
      alias: r.values[ALIAS] ?? '',
      taxonId: r.values[TAXON_ID] ?? '',
      scientificName: r.values[SCIENTIFIC_NAME] ?? '',
      fields: fieldsOf(r.values),
      reportId: input.reportId,
      createdBy: input.userId,
    }));
  for (let i = 0; i < fresh.length; i += INSERT_BATCH) await tx.insert(biodataSamples).values(fresh.slice(i, i + INSERT_BATCH));

  const bySample = new Map<string, FieldChange[]>();
  for (const c of input.changes) bySample.set(c.sampleId, [...(bySample.get(c.sampleId) ?? []), c]);
  const resend: string[] = [];
  for (const [sampleId, list] of bySample) {
    const [sample] = await tx.select().from(biodataSamples).where(eq(biodataSamples.id, sampleId)).for('update');
    if (!sample) throw Conflict("The profile's samples changed since this report was made: validate the sheet again.");
    if (sample.status === 'processing') {
      throw Conflict(`The sample ${sample.alias} is being registered at ENA: confirm this sheet once its registration has ended.`);
    }
    const values: Record<string, string> = { ...sample.fields, [TAXON_ID]: sample.taxonId, [SCIENTIFIC_NAME]: sample.scientificName };
    for (const c of list) {
      if (c.newValue === '') delete values[c.field];
      else values[c.field] = c.newValue;
    }
    const accessioned = sample.biosampleAccession !== null;
    await tx
      .update(biodataSamples)
      .set({
        fields: fieldsOf(values),
        taxonId: values[TAXON_ID] ?? sample.taxonId,
        scientificName: values[SCIENTIFIC_NAME] ?? sample.scientificName,
        reportId: input.reportId,
        // what ENA holds changes with it; a refused sample waits for its owner to register it again
        status: accessioned ? 'processing' : sample.status === 'refused' ? 'refused' : 'confirmed',
        statusDetail: accessioned ? 'The change is being sent to ENA.' : sample.statusDetail,
        timeUpdated: sql`now()`,
      })
      .where(eq(biodataSamples.id, sampleId));
    await tx.insert(biodataSampleUpdates).values(
      list.map((c) => ({
        sampleId,
        updateType: 'user' as const,
        field: c.field,
        oldValue: c.oldValue,
        newValue: c.newValue,
        actorId: input.userId,
      })),
    );
    if (accessioned) resend.push(sampleId);
  }
  if (resend.length) {
    await queueBiodataRegistration(tx, jobs, { profileId: input.profileId, sampleIds: resend, userId: input.userId });
  }
  return { created: fresh.length, updated: bySample.size };
}
