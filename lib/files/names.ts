import { type FieldError, Invalid } from '@/lib/errors';

export const FILE_NAME_MAX_BYTES = 255;

/**
 * The folder of a profile's storage that holds what the service itself stores there (specimen images and their
 * thumbnails, lib/images): never listed as a data file, and no upload URL is made for a name in it.
 */
export const SERVICE_FOLDER = '.service';

// C0 and C1 controls and DEL: they break logs, shells and the signed message (fields are newline-separated)
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point of this pattern
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why a data file name is refused, or null when it is fine. Names may hold sub-folders (`dir/b.fastq.gz`, as in the
 * reference system) but every segment must be a real name: no empty segment (leading, trailing or doubled `/`), no
 * `.` or `..`, no backslash; at most 255 bytes of UTF-8 in all.
 */
export function fileNameProblem(name: string): string | null {
  if (name.length === 0) return 'File name is empty';
  if (Buffer.byteLength(name, 'utf8') > FILE_NAME_MAX_BYTES) {
    return `File name is longer than ${FILE_NAME_MAX_BYTES} bytes`;
  }
  if (CONTROL.test(name)) return 'File name contains a control character';
  if (name.includes('\\')) return 'File name contains a backslash';
  if (name.startsWith('/')) return 'File name starts with /';
  for (const segment of name.split('/')) {
    if (segment === '') return 'File name has an empty folder segment';
    if (segment === '.' || segment === '..') return `File name has a '${segment}' segment`;
  }
  return null;
}

/** The names, de-duplicated in order; any bad one makes the whole request 400, naming each problem. */
export function checkFileNames(names: readonly string[]): string[] {
  const errors: FieldError[] = [];
  names.forEach((name, i) => {
    const problem =
      name.split('/')[0] === SERVICE_FOLDER ? `File names in ${SERVICE_FOLDER}/ are the service's own` : fileNameProblem(name);
    if (problem) errors.push({ path: `file_names.${i}`, message: `${problem}: ${JSON.stringify(name)}` });
  });
  if (errors.length) throw Invalid(errors.map((e) => e.message).join('; '), errors);
  return [...new Set(names)];
}

export function assertFileName(name: string): string {
  const problem = fileNameProblem(name);
  if (problem) throw Invalid(`${problem}: ${JSON.stringify(name)}`, [{ path: 'file_name', message: problem }]);
  return name;
}

/** A name in the service's own folder (SERVICE_FOLDER), or a bug: only the service names such files. */
export function assertServiceFile(name: string): string {
  if (name.split('/')[0] !== SERVICE_FOLDER) throw new Error(`expected a name in ${SERVICE_FOLDER}/, not ${JSON.stringify(name)}`);
  return assertFileName(name);
}
