import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageExtension } from '@flowbox/shared';
import { AppError } from '../errors.ts';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The image type read from the file's first bytes; the name and the declared type are not trusted. */
export function detectImageType(bytes: Buffer): ImageExtension | undefined {
  if (PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return undefined;
}

/**
 * Errors of a folder the server cannot write: read-only, full, not a folder, not ours. The upload
 * answers 503 errors.storage_unavailable (the operator's to mend; nothing is recorded), not a 500.
 */
const STORAGE_ERRORS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'ENOTDIR', 'EEXIST']);

export async function writeImageFile(dir: string, fileName: string, bytes: Buffer): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, fileName), bytes, { flag: 'wx' });
  } catch (error) {
    if (STORAGE_ERRORS.has((error as NodeJS.ErrnoException).code ?? ''))
      throw new AppError('errors.storage_unavailable');
    throw error;
  }
}

export function readImageFile(dir: string, fileName: string): Promise<Buffer> {
  return readFile(join(dir, fileName));
}

/** Removes files whose records are gone; a file already missing is not an error. */
export async function removeImageFiles(dir: string, fileNames: string[]): Promise<void> {
  await Promise.all(fileNames.map((name) => rm(join(dir, name), { force: true })));
}
