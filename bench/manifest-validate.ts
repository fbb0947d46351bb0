import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { currentDefinition, parseManifest, validateManifest } from '../lib/manifests';
import { testContext } from '../tests/fixtures/manifests/context';
import { validRows } from '../tests/fixtures/manifests/generate';
import { toXlsx } from '../tests/fixtures/manifests/workbook';

export interface ManifestBenchResult {
  rows: number;
  fileBytes: number;
  exceljsMs: number;
  parseMs: number;
  validateMs: number;
  errors: number;
  warnings: number;
}

const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
};

/**
 * A DTOL manifest of `rows` valid rows (typed like Excel saves them) read three ways: exceljs alone, parseManifest,
 * then validateManifest with the in-memory taxonomy. Validation should cost about as much as reading the file.
 */
export async function benchManifestValidate(rows = 10_000): Promise<ManifestBenchResult> {
  const definition = currentDefinition('dtol');
  const file = await toXlsx(
    definition.fields.map((f) => f.name),
    validRows(definition, rows),
    { typed: true },
  );

  const [, exceljsMs] = await time(async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
    return wb;
  });
  const [parsed, parseMs] = await time(() => parseManifest(file, 'bench.xlsx', { definition }));
  const [result, validateMs] = await time(() => validateManifest(parsed, definition, testContext({ maxRows: Infinity })));
  return {
    rows,
    fileBytes: file.byteLength,
    exceljsMs,
    parseMs,
    validateMs,
    errors: result.errors.length,
    warnings: result.warnings.length,
  };
}

export function formatManifestBench(r: ManifestBenchResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  return [
    `manifest-validate: ${r.rows} DTOL rows, ${(r.fileBytes / 1024 / 1024).toFixed(1)} MiB xlsx`,
    `  exceljs load        ${s(r.exceljsMs)}`,
    `  parseManifest       ${s(r.parseMs)}  (${(r.parseMs / r.exceljsMs).toFixed(2)}× exceljs)`,
    `  validateManifest    ${s(r.validateMs)}  (${(r.validateMs / r.exceljsMs).toFixed(2)}× exceljs; ${r.errors} errors, ${r.warnings} warnings)`,
    `  parse + validate    ${s(r.parseMs + r.validateMs)}  (${((r.parseMs + r.validateMs) / r.exceljsMs).toFixed(2)}× exceljs)`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(formatManifestBench(await benchManifestValidate()));
}
