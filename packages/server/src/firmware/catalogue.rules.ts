import type {
  EventAction,
  FirmwareImage,
  FirmwareImagePatchSchema,
  FirmwareImageStatus,
} from '@flowbox/shared';
import type { z } from 'zod';
import { releaseShownTo, type Actor } from '../access/access.ts';
import { AppError } from '../errors.ts';
import type { CatalogueImage } from './catalogue.repo.ts';

/*
 * The catalogue's rules that need no database (docs/firmware.md "Catalogue"): the size limit on an
 * upload's bytes, what a change really changes and how the log names it, an image as a caller sees it.
 */

type PatchInput = z.infer<typeof FirmwareImagePatchSchema>;

/** Passes the bytes on, refusing the upload (413) as soon as they pass `max`. */
export async function* limitedTo(bytes: AsyncIterable<Buffer>, max: number): AsyncGenerator<Buffer> {
  let total = 0;
  for await (const piece of bytes) {
    total += piece.length;
    if (total > max) throw new AppError('errors.firmware_too_large', { max: max / 2 ** 20 });
    yield piece;
  }
}

/** Notes as stored: none rather than an empty text; undefined leaves them as they are. */
export function notesOf(text: string | undefined): string | null | undefined {
  return text === undefined ? undefined : text || null;
}

/** The fields a patch really changes, by their API names. */
export function changedFields(image: CatalogueImage, input: PatchInput): string[] {
  const released = image.releasedToAll ? 'all' : image.customerIds.join(',');
  const asked =
    input.released_to === undefined
      ? undefined
      : input.released_to === 'all'
        ? 'all'
        : [...new Set(input.released_to)].sort().join(',');
  return [
    input.notes_en !== undefined && notesOf(input.notes_en) !== image.notesEn ? 'notes_en' : null,
    input.notes_fr !== undefined && notesOf(input.notes_fr) !== image.notesFr ? 'notes_fr' : null,
    asked !== undefined && asked !== released ? 'released_to' : null,
    input.status !== undefined && input.status !== image.status ? 'status' : null,
  ].filter((field): field is string => field !== null);
}

export function statusAction(status: FirmwareImageStatus): EventAction {
  if (status === 'deprecated') return 'deprecated';
  if (status === 'withdrawn') return 'withdrawn';
  return 'updated';
}

/** An image as the caller sees it: others than the provider learn only whether their own customer is in its list. */
export function toApiImage(image: CatalogueImage, actor: Actor, installed: number): FirmwareImage {
  return {
    id: image.id,
    version: image.version,
    models: image.models,
    file_name: image.fileName,
    size: image.size,
    sha256: image.sha256,
    notes_en: image.notesEn,
    notes_fr: image.notesFr,
    status: image.status,
    released_to: image.releasedToAll ? 'all' : releaseShownTo(actor, image.customerIds),
    uploaded_at: image.createdAt.toISOString(),
    uploaded_by_name: image.uploadedByName,
    installed_count: installed,
  };
}
