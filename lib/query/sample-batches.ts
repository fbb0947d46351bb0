import type { Db } from '@/db/client';
import { forEachValueRow } from '@/db/rows';
import type { SampleRow } from '@/lib/standards/render';
import { ByteChunks } from './byte-chunks';
import { profileTitleCache } from './profile-titles';
import { type BatchRow, toBatchRow } from './sample-select';
import type { BatchQuery } from './sql';
import type { Batch, PageRequest, RowWriter } from './stream';

/**
 * A batch of sample rows being read: each row decoded as it arrives, given its profile's title, and, when the answer's
 * writer is known, written at once while the database sends the rest.
 */

/** What a row written as it arrived keeps of its stored fields: nothing. */
const NO_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

// prepared once per connection (forEachValueRow prepares its statements)
const TITLES_QUERY = 'select id, title from profiles where id = any($1::text[])';

/**
 * The titles of the profiles a stream's rows belong to, by profile id: those this process has read lately
 * (lib/query/profile-titles.ts), and the others read as the stream meets each profile (a few hundred profiles at most for
 * a whole export) instead of joined to every row. A stream keeps the title it first gave a profile to its end.
 */
export class ProfileTitles {
  private readonly known = new Map<string, string | null>();

  constructor(private readonly db: Db) {}

  get(profileId: string): string | null | undefined {
    let title = this.known.get(profileId);
    if (title === undefined) {
      title = profileTitleCache(this.db).get(profileId);
      if (title !== undefined) this.known.set(profileId, title);
    }
    return title;
  }

  async read(profileIds: readonly string[]): Promise<void> {
    const missing = [...new Set(profileIds)].filter((id) => this.get(id) === undefined);
    if (!missing.length) return;
    const cache = profileTitleCache(this.db);
    const mark = cache.mark();
    const found = new Map<string, string | null>();
    await forEachValueRow(this.db, { toSQL: () => ({ sql: TITLES_QUERY, params: [missing] }) }, ([id, title]) => {
      found.set(id as string, (title as string | null) ?? null);
    });
    // a profile that is gone has no title, as the left join gave none
    for (const id of missing) if (!found.has(id)) found.set(id, null);
    for (const [id, title] of found) this.known.set(id, title);
    cache.keep(mark, found);
  }
}

/** A row's (project, manifest version), as one key: what a batch keeps a stand-in for, and a result's shapes. */
export const shapeKey = (row: Pick<SampleRow, 'project' | 'manifestVersion'>): string => `${row.project}\u0000${row.manifestVersion}`;

/**
 * A batch being read: its rows, and with a writer, the same rows written as they are added, in order (ByteChunks:
 * as bytes once past a short answer). A batch written so holds its answer, not its rows: in place of each row but
 * the last stands the first row of the batch with the same (project, manifest version), all that is read of it (the
 * summary's shapes, shapesOf), with the last row itself for the next batch's position. Keeping every row until the
 * batch was done made each young-generation collection of an export copy a thousand of them, and promote them (a
 * tenth of the export's CPU, bench/http.ts).
 */
class BatchOfRows {
  readonly rows: Batch<BatchRow> = [];
  private readonly chunks: ByteChunks | undefined;
  private last: BatchRow | null = null;
  /** per (project, version) met: the row that stands for the rows of that pair */
  private readonly standIns = new Map<string, BatchRow>();

  constructor(private readonly writer: RowWriter<SampleRow> | undefined) {
    this.chunks = writer && new ByteChunks(writer.separator);
  }

  /** Adds a row whose title is known, and writes it. */
  add(row: BatchRow, title: string | null): void {
    row.profileTitle = title;
    if (!this.chunks) {
      this.rows.push(row);
      return;
    }
    const writer = this.writer as RowWriter<SampleRow>;
    if (writer.writeInto) writer.writeInto(row, this.chunks);
    else this.chunks.write(writer.write(row));
    // what is written no longer needs the stored fields
    row.fields = NO_FIELDS;
    this.last = row;
    const shape = shapeKey(row);
    let standIn = this.standIns.get(shape);
    if (!standIn) {
      standIn = row;
      this.standIns.set(shape, row);
    }
    this.rows.push(standIn);
  }

  done(): Batch<BatchRow> {
    if (this.chunks) {
      this.rows.written = this.chunks.parts();
      if (this.last) this.rows[this.rows.length - 1] = this.last;
    }
    return this.rows;
  }
}

/**
 * A batch of rows, with their profiles' titles; when `prerender` gives a writer (asked as each batch starts), each
 * row is written as it arrives, while the database is still sending the rest. A row of a profile the stream has
 * not met yet waits for that profile's title, and the rows after it wait their turn: the titles of the profiles
 * first met in one delivery of rows (a network read on PostgreSQL, the whole batch on PGlite) are asked for
 * together, on another connection, once that delivery is handed over; the waiting rows are taken, in order, when
 * the titles arrive, usually before the batch ends.
 */
export const sampleBatchFetcher =
  <K>(
    db: Db,
    query: (req: PageRequest<K>) => BatchQuery,
    prerender: () => RowWriter<SampleRow> | undefined = () => undefined,
    titles: ProfileTitles | 'in-query' = new ProfileTitles(db),
  ) =>
  async (req: PageRequest<K>): Promise<Batch<BatchRow>> => {
    if (titles === 'in-query') return titledBatch(db, query(req), prerender());
    const batch = new BatchOfRows(prerender());
    // rows read but not taken yet, in order: from the first whose profile's title is still being read
    let waiting: BatchRow[] = [];
    const asked = new Set<string>();
    let unread: string[] = [];
    const reads: Promise<void>[] = [];
    const takeWaiting = () => {
      let taken = 0;
      for (const row of waiting) {
        const title = titles.get(row.profileId);
        if (title === undefined) break;
        batch.add(row, title);
        taken++;
      }
      waiting = taken === waiting.length ? [] : waiting.slice(taken);
    };
    const readTitles = () => {
      const ids = unread;
      unread = [];
      const read = titles.read(ids).then(takeWaiting);
      // a batch that fails, or a client that leaves, leaves this read unawaited: its failure is nobody's concern then
      read.catch(() => {});
      reads.push(read);
    };
    // a statement may give more rows than the page asks for (lookupOneQuery): the rest are not taken
    let wanted = req.limit;
    await forEachValueRow(db, query(req), (values) => {
      if (wanted-- <= 0) return;
      const row = toBatchRow(values);
      const title = titles.get(row.profileId);
      if (title !== undefined && !waiting.length) return batch.add(row, title);
      waiting.push(row);
      if (title !== undefined || asked.has(row.profileId)) return;
      asked.add(row.profileId);
      // the rows of one delivery are handed over in one go: the read starts once they all are
      if (!unread.length) queueMicrotask(readTitles);
      unread.push(row.profileId);
    });
    if (unread.length) readTitles();
    await Promise.all(reads);
    takeWaiting();
    return batch.done();
  };

/** A batch whose statement gives each row's profile title as its last value (lookupBatchQuery). */
export async function titledBatch(db: Db, query: BatchQuery, writer: RowWriter<SampleRow> | undefined): Promise<Batch<BatchRow>> {
  const batch = new BatchOfRows(writer);
  await forEachValueRow(db, query, (values) => {
    const title = values.pop() as string | null;
    batch.add(toBatchRow(values), title ?? null);
  });
  return batch.done();
}
