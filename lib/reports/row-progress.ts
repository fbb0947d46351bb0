import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { validationReports } from '@/db/schema';
import type { TaxonomyLookup } from '@/lib/manifests';
import type { ParsedRow } from '@/lib/manifests/contract';

const PROGRESS_EVERY_MS = 250;

/**
 * Rows checked of the total, for the report's readers while the job runs. The slow part of a validation is the
 * taxonomy (one lookup per distinct taxon, over the network), so a row counts as checked once the lookup its
 * TAXON_ID (or, without one, its SCIENTIFIC_NAME) waits on has answered; rows naming no taxon count once the
 * lookups begin, the cell checks being done by then. Written at most every PROGRESS_EVERY_MS, one write at a time,
 * and only while the report runs, so a late write never overtakes the result.
 */
export class RowProgress {
  private readonly waiting = new Map<string, number>();
  private readonly total: number;
  private withoutTaxon = 0;
  private checked = 0;
  private began = false;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly reportId: string,
    rows: ParsedRow[],
  ) {
    this.total = rows.length;
    for (const r of rows) {
      const taxId = (r.values.TAXON_ID ?? '').trim();
      const name = (r.values.SCIENTIFIC_NAME ?? '').trim().toLowerCase();
      const key = taxId ? `id:${taxId}` : name ? `name:${name}` : null;
      if (key) this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
      else this.withoutTaxon += 1;
    }
  }

  /** The file is read: the total is known, nothing is checked yet. */
  started(): Promise<void> {
    return this.write();
  }

  /** The lookups wrapped so that each answer counts the rows that waited on it. */
  counting(taxonomy: TaxonomyLookup): TaxonomyLookup {
    return {
      byTaxId: async (id) => {
        const record = await taxonomy.byTaxId(id);
        this.done(`id:${id.trim()}`);
        return record;
      },
      byScientificName: async (name) => {
        const records = await taxonomy.byScientificName(name);
        this.done(`name:${name.trim().toLowerCase()}`);
        return records;
      },
    };
  }

  /** Every row is checked; waits for any write under way, so the result is written after it. */
  async finished(): Promise<void> {
    this.checked = this.total;
    await this.writing;
    await this.write();
  }

  private done(key: string): void {
    if (!this.began) {
      this.began = true;
      this.checked += this.withoutTaxon;
    }
    const n = this.waiting.get(key);
    if (n) {
      this.waiting.delete(key);
      this.checked += n;
    }
    if (Date.now() - this.lastWrite < PROGRESS_EVERY_MS) return;
    this.lastWrite = Date.now();
    this.writing = this.writing.then(() => this.write()).catch(() => undefined);
  }

  private write(): Promise<void> {
    const checked = Math.min(this.checked, this.total);
    const percent = this.total ? 25 + Math.floor((60 * checked) / this.total) : 85;
    return this.db
      .update(validationReports)
      .set({ progress: percent, summary: { rows: 0, errors: 0, warnings: 0, rows_total: this.total, rows_checked: checked } })
      .where(and(eq(validationReports.id, this.reportId), eq(validationReports.status, 'running')))
      .then(() => undefined);
  }
}
