import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_IMAGE_BYTES } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { writeFile } from '../files/files.store.ts';
import { claimImageToImport, imagesToImport, setImageFile } from './images.repo.ts';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/**
 * Moves the images an installation kept in DATA_DIR/uploads (before files moved to the database,
 * docs/decisions.md "Files in PostgreSQL") into the database, once, at start. Each image is claimed
 * in its own transaction, so instances starting together import it once; an imported image is not
 * looked at again, and a file gone from the folder is skipped with a warning (the image answers
 * 404, as it did). The folder is left as it was: the operator removes it once the log says so.
 */
export async function importUploadedImages(db: Db, uploadsDir: string, log: Logger): Promise<void> {
  const pending = await imagesToImport(db);
  if (pending.length === 0) return;
  const counts = { imported: 0, missing: 0 };
  for (const image of pending) {
    const path = join(uploadsDir, image.fileName);
    const exists = await stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) {
      counts.missing += 1;
      log.warn({ imageId: image.id, path }, 'image file missing from DATA_DIR/uploads: not imported');
      continue;
    }
    const imported = await db.transaction(async (tx) => {
      if (!(await claimImageToImport(tx, image.id))) return false;
      const file = await writeFile(tx, createReadStream(path), {
        contentType: image.contentType,
        maxBytes: MAX_IMAGE_BYTES,
      });
      await setImageFile(tx, image.id, file.id);
      return true;
    });
    if (imported) counts.imported += 1;
  }
  log.info({ ...counts, uploadsDir }, 'images of DATA_DIR/uploads imported into the database');
}
