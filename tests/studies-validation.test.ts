import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { FIRST_DATA_ROW } from '@/lib/studies/layout';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { columnOf, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';
const INVALID = 'Spreadsheet is not valid, please check the errors in the manifest.';

let h: Harness;
let server: RepositoryServer;
let key: string;
let profileId: string;
let api: ReturnType<typeof studiesApi>;
let def: ChecklistDefinition;
let base: Uint8Array;

beforeAll(async () => {
  // ENA's browser API answers for accessions the profile does not hold
  server = await startRepositoryServer();
  h = await createHarness({ ENA_BROWSER_URL: server.browserUrl });
  const alice = await h.user();
  key = alice.key;
  profileId = await createProfile(h, key, 'Validation');
  await registerSamples(h, profileId);
  const other = await createProfile(h, key, 'Other profile');
  await registerSamples(h, other, [{ accession: 'SAMEA8000001', taxonId: '9606', scientificName: 'Homo sapiens' }]);
  api = studiesApi(h, key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);
  const tpl = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  base = await workbookBytes(await fillTemplate(tpl, def, fixtureComponents(def, { studyId: 'VAL1', samples: SAMPLES })));
});
afterAll(async () => {
  await h.close();
  await server.close();
});

type Mutation = (wb: ExcelJS.Workbook) => void;

async function mutated(...changes: Mutation[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(base) as unknown as ExcelJS.Buffer);
  for (const change of changes) change(wb);
  return workbookBytes(wb);
}

/** Sets the cell of a term in the k-th data row (0-based) of a sheet. */
const set =
  (sheet: string, term: string, k: number, value: ExcelJS.CellValue): Mutation =>
  (wb) => {
    const ws = wb.getWorksheet(sheet)!;
    const component = def.components.find((c) => c.key === sheet)!;
    ws.getRow(FIRST_DATA_ROW + k).getCell(columnOf(ws, component, term)).value = value;
  };

const studyCount = async () => (await h.database.db.select().from(studies).where(eq(studies.profileId, profileId))).length;

async function expectReport(bytes: Uint8Array) {
  const before = await studyCount();
  const body = await expectProblem(await api.upload(SCHEMA, CHECKLIST, bytes), 422);
  expect(body.detail).toBe(INVALID);
  expect(await studyCount()).toBe(before);
  return body.errors as Record<string, unknown>[];
}

describe('each rule of docs/studies-and-checklists.md §9 reports at the right sheet, row and column, and nothing is stored', () => {
  it('accepts the untouched fixture (the baseline of every case below)', async () => {
    const res = await api.upload(SCHEMA, CHECKLIST, base);
    expect(res.status).toBe(200);
    await h.database.db.delete(studies).where(eq(studies.profileId, profileId));
  });

  it('a mandatory column is missing', async () => {
    const errors = await expectReport(
      await mutated((wb) => {
        const ws = wb.getWorksheet('study')!;
        ws.spliceColumns(columnOf(ws, def.components[0]!, 'title'), 1);
      }),
    );
    expect(errors).toEqual([
      {
        sheet: 'study',
        row: null,
        column: 'Title',
        value: null,
        message: "Sheet study: Mandatory column 'title' is missing",
        path: 'study',
      },
    ]);
  });

  it('a mandatory cell is empty (an NA token counts as empty)', async () => {
    const errors = await expectReport(await mutated(set('person', 'givenName', 1, null), set('person', 'familyName', 0, 'N/A')));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'person',
        row: 5,
        column: 'Last Name',
        value: null,
        message: 'Sheet person: Missing data detected in column Last Name at row 5.',
      }),
      expect.objectContaining({
        sheet: 'person',
        row: 6,
        column: 'First Name',
        value: null,
        message: 'Sheet person: Missing data detected in column First Name at row 6.',
      }),
    ]);
  });

  it('an unknown column', async () => {
    const errors = await expectReport(
      await mutated((wb) => {
        const ws = wb.getWorksheet('sample')!;
        const col = ws.getRow(1).cellCount + 1;
        ws.getRow(1).getCell(col).value = 'Favourite colour';
        ws.getRow(5).getCell(col).value = 'blue';
      }),
    );
    expect(errors).toEqual([
      {
        sheet: 'sample',
        row: 1,
        column: 'Favourite colour',
        value: 'Favourite colour',
        message: "Sheet sample: Invalid column 'Favourite colour'",
        path: 'sample!F1',
      },
    ]);
  });

  it('a value outside the allowed values', async () => {
    const errors = await expectReport(await mutated(set('lib_prep', 'primer', 0, 'Hexamer')));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'lib_prep',
        row: 5,
        column: 'Primer (optional)',
        value: 'Hexamer',
        message: "Sheet lib_prep: Invalid value Hexamer in column Primer at row 5. Valid values are: ['Oligo-dT', 'Random']",
      }),
    ]);
  });

  it('a value that does not match the pattern, with the term’s message', async () => {
    const email = def.components.find((c) => c.key === 'person')!.fields.find((f) => f.termName === 'email')!;
    const errors = await expectReport(await mutated(set('person', 'email', 0, 'jane..doe@example')));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'person',
        row: 5,
        column: 'Email Address (optional)',
        value: 'jane..doe@example',
        message: `Sheet person: Invalid value jane..doe@example in column Email Address at row 5. ${email.errorMessage}`,
      }),
    ]);
  });

  it('a cell longer than any term allows, quoted by its start, before any rule reads it', async () => {
    const long = `${'a.'.repeat(10_000)}@example.org`;
    const errors = await expectReport(await mutated(set('person', 'email', 0, long)));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'person',
        row: 5,
        column: 'Email Address (optional)',
        value: `${long.slice(0, 100)}… (20,012 characters)`,
        message:
          'Sheet person: The cell in column Email Address at row 5 holds 20,012 characters; a cell may hold at most 4,096. ' +
          'Shorten it and upload the sheet again.',
      }),
    ]);
  });

  it('a duplicated identifier', async () => {
    const errors = await expectReport(await mutated(set('dissociation', 'dissociation_protocol_id', 1, 'DISSOC001')));
    expect(errors).toContainEqual(
      expect.objectContaining({
        sheet: 'dissociation',
        row: 6,
        column: 'Dissociation Protocol ID',
        value: 'DISSOC001',
        message: 'Sheet dissociation: Invalid value DISSOC001 in column dissociation_protocol_id: duplicated twice.',
      }),
    );
    // and the row that pointed at the lost DISSOC002
    expect(errors).toContainEqual(expect.objectContaining({ sheet: 'cell_suspension', row: 6, value: 'DISSOC002' }));
  });

  it('a reference to an identifier that the referenced sheet does not have', async () => {
    const errors = await expectReport(await mutated(set('cell_suspension', 'sample_id', 0, 'NOSUCH')));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'cell_suspension',
        row: 5,
        column: 'Sample ID',
        value: 'NOSUCH',
        message: 'Sheet cell_suspension: NOSUCH at row 5 is missing in the referenced sheet sample and column sample_id.',
        path: 'cell_suspension!C5',
      }),
    ]);
  });

  it('a referenced sheet is missing', async () => {
    const errors = await expectReport(await mutated((wb) => wb.removeWorksheet(wb.getWorksheet('expression_data_process_setting')!.id)));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'expression_data_file',
        row: null,
        column: 'Expression Data Process Setting ID',
        message: "Sheet expression_data_file: Referenced component: 'expression_data_process_setting' is missing",
      }),
    ]);
  });

  it('no study row, or two', async () => {
    const clear: Mutation = (wb) => {
      const row = wb.getWorksheet('study')!.getRow(FIRST_DATA_ROW);
      row.eachCell((cell) => {
        cell.value = null;
      });
    };
    expect(await expectReport(await mutated(clear))).toEqual([
      { sheet: 'study', row: null, column: null, value: null, message: 'Study component is missing', path: 'study' },
    ]);
    const second: Mutation = (wb) => {
      const ws = wb.getWorksheet('study')!;
      ws.getRow(FIRST_DATA_ROW).eachCell((cell, col) => {
        ws.getRow(FIRST_DATA_ROW + 1).getCell(col).value = col === 1 ? 'VAL2' : cell.value;
      });
    };
    expect(await expectReport(await mutated(second))).toEqual([
      { sheet: 'study', row: 6, column: null, value: null, message: 'Only one study is allowed', path: 'study' },
    ]);
  });

  it('a biosample accession that neither this profile nor ENA holds (another profile’s does not count)', async () => {
    for (const accession of ['SAMEA9999999', 'SAMEA8000001']) {
      const errors = await expectReport(await mutated(set('sample', 'biosampleAccession', 0, accession)));
      expect(errors).toEqual([
        expect.objectContaining({
          sheet: 'sample',
          row: 5,
          column: 'Biosample Accession',
          value: accession,
          message: `Sheet sample: Invalid value ${accession} in column Biosample Accession at row 5. Invalid ENA sample: neither this profile nor ENA holds a sample with this accession.`,
        }),
      ]);
    }
  });

  it('a taxon that differs from the registered sample’s', async () => {
    const errors = await expectReport(await mutated(set('sample', 'taxon_id', 0, '10090')));
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'sample',
        row: 5,
        column: 'Taxon ID',
        value: '10090',
        message: "Sheet sample: Invalid value 10090 not match with 9606 in column taxon_id at row 5 (the profile's sample SAMEA7000001).",
      }),
    ]);
  });

  it('a sheet that is not a component of the checklist', async () => {
    const errors = await expectReport(await mutated((wb) => (wb.addWorksheet('notes').getCell('A1').value = 'hello')));
    expect(errors).toEqual([{ sheet: 'notes', row: null, column: null, value: null, message: 'Invalid worksheet: notes', path: 'notes' }]);
  });

  it('a named data file without its checksum, and a file named twice', async () => {
    const errors = await expectReport(
      await mutated(set('file', 'read_2_file_checksum', 0, null), set('file', 'read_1_file', 1, 'file_read_1_file_1.fastq.gz')),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        sheet: 'file',
        row: 5,
        column: 'Read 2 File (optional)',
        value: 'file_read_2_file_1.fastq.gz',
        message: 'File name: file_read_2_file_1.fastq.gz is missing checksum read_2_file_checksum in the manifest.',
      }),
      expect.objectContaining({
        sheet: 'file',
        row: 6,
        column: 'Read 1 File',
        value: 'file_read_1_file_1.fastq.gz',
        message: 'Duplicated files: file_read_1_file_1.fastq.gz in the manifest.',
      }),
    ]);
  });

  it('reports every problem at once, in sheet order', async () => {
    const errors = await expectReport(
      await mutated(
        set('lib_prep', 'primer', 0, 'Hexamer'),
        set('person', 'givenName', 1, null),
        set('cell_suspension', 'sample_id', 0, 'NOSUCH'),
      ),
    );
    expect(errors.map((e) => [e.sheet, e.row])).toEqual([
      ['person', 6],
      ['cell_suspension', 5],
      ['lib_prep', 5],
    ]);
  });

  it('a study ID that cannot be addressed in a path (REMBI has no pattern for it)', async () => {
    const rembi = await definition(h, 'svc_image_rembi', 'version_rembi');
    const tpl = await bytesOf(await api.template('svc_image_rembi', 'version_rembi'));
    const bytes = await workbookBytes(await fillTemplate(tpl, rembi, fixtureComponents(rembi, { studyId: 'My study', samples: SAMPLES })));
    const body = await expectProblem(await api.upload('svc_image_rembi', 'version_rembi', bytes), 422);
    expect(body.errors).toEqual([
      expect.objectContaining({
        sheet: 'study',
        row: 5,
        column: 'Study ID',
        value: 'My study',
        message:
          "Sheet study: Invalid value My study in column Study ID at row 5. A study ID may contain only letters, digits, '_', '-' and '.'.",
      }),
    ]);
  });
});

describe('reading the spreadsheet', () => {
  it('takes numbers and dates typed as such, and finds the data below the separator when the descriptive rows are gone', async () => {
    const bytes = await mutated(
      set('sample', 'taxon_id', 0, 9606),
      set('study', 'created', 0, new Date(Date.UTC(2024, 4, 1))),
      // as Excel stores a date typed into a cell formatted as a date
      (wb) => {
        const ws = wb.getWorksheet('study')!;
        const cell = ws.getRow(FIRST_DATA_ROW).getCell(columnOf(ws, def.components[0]!, 'created'));
        // a copy: cells loaded with the same format share one style object
        cell.style = { ...cell.style, numFmt: 'yyyy-mm-dd' };
      },
      (wb) => {
        for (const ws of wb.worksheets) if (ws.name !== 'data_values') ws.spliceRows(2, 2);
      },
    );
    const res = await api.upload(SCHEMA, CHECKLIST, bytes);
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await h.database.db.select().from(studies).where(eq(studies.profileId, profileId));
    expect(row!.components.sample![0]!.taxon_id).toBe('9606');
    expect(row!.components.study![0]!.created).toBe('2024-05-01');
    await h.database.db.delete(studies).where(eq(studies.profileId, profileId));
  });

  it('reads list values typed in another case or as numbers, and stores them as the list spells them', async () => {
    const bytes = await mutated(
      set('expression_data_process_setting', 'normalisation_method', 0, 'log normalisation'),
      set('lib_prep', 'end_bias', 0, 3),
      set('lib_prep', 'end_bias', 1, '5.0'),
    );
    const res = await api.upload(SCHEMA, CHECKLIST, bytes);
    expect(res.status, await res.clone().text()).toBe(200);
    const [row] = await h.database.db.select().from(studies).where(eq(studies.profileId, profileId));
    expect(row!.components.expression_data_process_setting![0]!.normalisation_method).toBe('Log Normalisation');
    expect(row!.components.lib_prep!.map((r) => r.end_bias)).toEqual(['3', '5']);
    await h.database.db.delete(studies).where(eq(studies.profileId, profileId));
  });

  it('reads a date cell as a date whatever date format the cell shows it in', async () => {
    // Excel's built-in short date (14 = m/d/yy, written by exceljs as mm-dd-yy), a British date, a long date, a
    // date with a time of day and a locale prefix
    for (const numFmt of ['mm-dd-yy', 'dd/mm/yyyy', 'd-mmm-yy', '[$-809]dddd, d mmmm yyyy', 'yyyy-mm-dd hh:mm']) {
      const bytes = await mutated(set('study', 'created', 0, new Date(Date.UTC(2024, 2, 5))), (wb) => {
        const ws = wb.getWorksheet('study')!;
        const cell = ws.getRow(FIRST_DATA_ROW).getCell(columnOf(ws, def.components[0]!, 'created'));
        cell.style = { ...cell.style, numFmt };
      });
      const res = await api.upload(SCHEMA, CHECKLIST, bytes);
      expect(res.status, `${numFmt}: ${await res.clone().text()}`).toBe(200);
      const [row] = await h.database.db.select().from(studies).where(eq(studies.profileId, profileId));
      expect(row!.components.study![0]!.created, numFmt).toBe('2024-03-05');
      await h.database.db.delete(studies).where(eq(studies.profileId, profileId));
    }
  });

  it('warns about data files not uploaded to the profile, and still saves', async () => {
    const res = await api.upload(SCHEMA, CHECKLIST, base);
    const body = (await res.json()) as { warnings: Record<string, unknown>[] };
    expect(res.status).toBe(200);
    expect(body.warnings).toContainEqual(
      expect.objectContaining({ sheet: 'file', row: 5, column: 'Read 1 File', value: 'file_read_1_file_1.fastq.gz' }),
    );
    await h.database.db.delete(studies).where(eq(studies.profileId, profileId));
  });
});

describe('request errors', () => {
  it('answers 400 without a file, 415 for another kind of file, 400 for an unreadable workbook', async () => {
    expect((await expectProblem(await api.upload(SCHEMA, CHECKLIST, undefined), 400)).detail).toBe('Please upload a manifest file.');
    expect((await expectProblem(await api.upload(SCHEMA, CHECKLIST, base, 'study.csv'), 415)).detail).toBe(
      'Please make sure your manifest is in xlsx format',
    );
    const garbage = await expectProblem(await api.upload(SCHEMA, CHECKLIST, new TextEncoder().encode('a,b\n1,2\n')), 400);
    expect(garbage.detail).toContain(INVALID);
    const json = await h.request(`${api.base(SCHEMA)}/studies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      key,
    });
    await expectProblem(json, 415);
  });

  it('answers 400 for a missing, unknown or other-schema checklist_id and 404 for an unknown schema', async () => {
    expect((await expectProblem(await api.upload(SCHEMA, undefined, base), 400)).detail).toBe(
      "'checklist_id' is required but not provided.",
    );
    expect((await expectProblem(await api.upload(SCHEMA, 'version_xyz', base), 400)).detail).toMatch(/^Invalid value for 'checklist_id'/);
    await expectProblem(await api.upload(SCHEMA, 'version_rembi', base), 400);
    const unknown = await expectProblem(await api.upload('svc_rnaseq', CHECKLIST, base), 404);
    expect(unknown.detail).toBe(
      "Unknown schema 'svc_rnaseq'. Accepted values are: svc_single_cell, svc_image_rembi, svc_image_stx_fish and svc_read",
    );
  });

  it('answers 404 for an unknown or someone else’s profile and 401 without a key', async () => {
    const bob = await h.user();
    const foreign = studiesApi(h, bob.key, profileId);
    await expectProblem(await foreign.upload(SCHEMA, CHECKLIST, base), 404);
    await expectProblem(await foreign.list(SCHEMA), 404);
    await expectProblem(await foreign.template(SCHEMA, CHECKLIST), 404);
    await expectProblem(await studiesApi(h, key, 'a'.repeat(24)).list(SCHEMA), 404);
    await expectProblem(await h.request(`${api.base(SCHEMA)}/studies`), 401);
  });

  it('answers 413 above UPLOAD_MAX_BYTES', async () => {
    const limit = h.deps.config.UPLOAD_MAX_BYTES;
    h.deps.config.UPLOAD_MAX_BYTES = 1000;
    try {
      await expectProblem(await api.upload(SCHEMA, CHECKLIST, base), 413);
    } finally {
      h.deps.config.UPLOAD_MAX_BYTES = limit;
    }
    expect(await studyCount()).toBe(0);
  });
});
