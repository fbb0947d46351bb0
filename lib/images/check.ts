import { fileNameProblem } from '@/lib/files/names';
import type { ImageFormat } from './contract';
import { IMAGE_MAX_BYTES } from './limits';
/** The longer side of a thumbnail, in pixels (a JPEG). */
export const THUMBNAIL_PIXELS = 256;

const EXTENSIONS: Record<string, ImageFormat> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', tif: 'tiff', tiff: 'tiff' };
const FORMAT_WORDS: Record<ImageFormat, string> = { jpeg: 'a JPEG', png: 'a PNG', tiff: 'a TIFF' };

/** The file's extension, lower case: `jpg` of `A-1.JPG`. */
export const extensionOf = (fileName: string) => (fileName.match(/\.([^./]+)$/)?.[1] ?? '').toLowerCase();

export interface CheckedImage {
  format: ImageFormat;
  width: number;
  height: number;
  thumbnail: Buffer;
}

/** Why a name cannot be an image's, or null: a plain name (no folder) ending in .jpg, .jpeg, .png, .tif or .tiff. */
export function imageNameProblem(fileName: string): string | null {
  const problem = fileNameProblem(fileName);
  if (problem) return `${problem}: ${fileName}`;
  if (fileName.includes('/')) return `${fileName}: an image's name holds no folder`;
  if (!EXTENSIONS[extensionOf(fileName)]) return `${fileName} is not named as a JPEG, PNG or TIFF image (.jpg, .jpeg, .png, .tif, .tiff)`;
  return null;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;

/** The images over IMAGE_MAX_BYTES, said as a person reads sizes; null when none is. */
export function oversizedImages(parts: readonly { name: string; size: number }[]): string | null {
  const over = parts.filter((p) => p.size > IMAGE_MAX_BYTES);
  if (!over.length) return null;
  const each = over.map((p) => `${p.name} is ${megabytes(p.size)}`).join('; ');
  return `${each}; the limit is ${megabytes(IMAGE_MAX_BYTES)} an image. Save a smaller copy (a lower resolution or more compression) and send it again.`;
}

/**
 * The image read by its content: a JPEG, PNG or TIFF that decodes, of the type its extension names, and its
 * thumbnail (turned upright as its EXIF orientation says). A file that is not such an image gives the reason.
 */
export async function checkImage(fileName: string, bytes: Uint8Array): Promise<CheckedImage | string> {
  const named = EXTENSIONS[extensionOf(fileName)];
  const words = named ? FORMAT_WORDS[named] : 'an';
  // loaded when first needed: libvips holds memory that a service never sent an image need not hold, and loading it
  // lengthens every start (docs/benchmarks.md)
  const { default: sharp } = await import('sharp');
  try {
    const meta = await sharp(bytes, { failOn: 'error' }).metadata();
    const format = meta.format;
    if (format !== named || !meta.width || !meta.height)
      return `${fileName} is not ${words} image (its content is ${meta.format ?? 'unknown'})`;
    const thumbnail = await sharp(bytes, { failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_PIXELS, THUMBNAIL_PIXELS, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { format, width: meta.width, height: meta.height, thumbnail };
  } catch {
    return `${fileName} is not ${words} image (its content cannot be read as one)`;
  }
}
