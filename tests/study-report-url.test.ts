import { describe, expect, it } from 'vitest';
import { type KeptReport, reportFragment, reportFromFragment } from '@/components/studies/report-url';

/** A study upload's report kept in the page's fragment reads back the same after a reload, and stays short. */
describe('a study report in the URL', () => {
  const entry = (row: number) => ({
    path: `study.${row}.Title`,
    sheet: 'study',
    row,
    column: 'Title',
    value: '',
    message: `Missing data detected in column Title at row ${row}. All required fields must have a value.`,
  });
  const report: KeptReport = {
    schema: 'svc_single_cell',
    upload: { state: 'invalid', file: 'retina-study.xlsx', errors: Array.from({ length: 300 }, (_, i) => entry(i + 5)), warnings: [] },
  };

  it('reads back the report it was made from', async () => {
    const fragment = await reportFragment(report);
    expect(fragment).toMatch(/^study-report=[A-Za-z0-9_-]+$/);
    expect(await reportFromFragment(`#${fragment}`)).toEqual(report);
    // 300 problems in a few kilobytes
    expect(fragment.length).toBeLessThan(8_000);
  });

  it('reads nothing from another fragment or a cut one', async () => {
    expect(await reportFromFragment('#studies')).toBeNull();
    expect(await reportFromFragment('')).toBeNull();
    const fragment = await reportFragment(report);
    expect(await reportFromFragment(fragment.slice(0, fragment.length / 2))).toBeNull();
  });

  it('reads nothing that names a schema the service does not have, or a checklist that is not an identifier', async () => {
    // an address anyone can write would otherwise steer the page's requests (`../../admin/users`)
    for (const schema of ['../../admin/users', 'svc_single_cell/../../x', 'SVC_OTHER']) {
      const forged = await reportFragment({ ...report, schema } as unknown as KeptReport);
      expect(await reportFromFragment(`#${forged}`)).toBeNull();
    }
    const badChecklist = await reportFragment({ ...report, checklist: '../x?y' });
    expect(await reportFromFragment(`#${badChecklist}`)).toBeNull();
    const good = await reportFragment({ ...report, checklist: 'version_dwc_sc_rnaseq' });
    expect((await reportFromFragment(`#${good}`))?.checklist).toBe('version_dwc_sc_rnaseq');
  });
});
