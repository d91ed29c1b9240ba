import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, images } from '../db/schema.ts';
import { createTestApp, createWorld, loginAs, TINY_PNG, type TestApp, type World } from '../test/harness.ts';
import { importUploadedImages } from './images.import.ts';
import { imageUrl, insertImage } from './images.repo.ts';

let t: TestApp;
let w: World;
let uploadsDir: string;
beforeAll(async () => {
  t = await createTestApp();
  w = await createWorld(t.db);
  uploadsDir = mkdtempSync(join(tmpdir(), 'fbx-uploads-'));
});
afterAll(async () => {
  await t.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

/** A log that keeps what it is told. */
function recordingLog() {
  const lines: { level: 'info' | 'warn'; obj: object; msg: string }[] = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
  };
}

/** An image as an installation before files moved to the database kept it: a row and DATA_DIR/uploads/<id>.png. */
async function legacyImage(withFile: boolean): Promise<string> {
  const id = crypto.randomUUID();
  if (withFile) writeFileSync(join(uploadsDir, `${id}.png`), TINY_PNG);
  await insertImage(t.db, {
    id,
    customerId: w.customers.a.id,
    fileName: `${id}.png`,
    contentType: 'image/png',
    byteSize: TINY_PNG.length,
  });
  return id;
}
const storedFiles = async () => (await t.db.select({ n: count() }).from(files))[0]!.n;

describe('importing DATA_DIR/uploads at start', () => {
  it('moves the files of an upgraded installation into the database, once, and skips a missing one', async () => {
    const [kept, alsoKept, lost] = [
      await legacyImage(true),
      await legacyImage(true),
      await legacyImage(false),
    ];
    const cmA = await loginAs(t.app, 'cm.a@test.io');
    expect((await cmA.get(imageUrl(kept))).statusCode).toBe(404);

    const log = recordingLog();
    await importUploadedImages(t.db, uploadsDir, log);
    for (const id of [kept, alsoKept]) {
      const res = await cmA.get(imageUrl(id));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
    }
    expect((await cmA.get(imageUrl(lost))).statusCode).toBe(404);
    expect(log.lines).toEqual([
      {
        level: 'warn',
        obj: { imageId: lost, path: join(uploadsDir, `${lost}.png`) },
        msg: 'image file missing from DATA_DIR/uploads: not imported',
      },
      {
        level: 'info',
        obj: { imported: 2, missing: 1, uploadsDir },
        msg: 'images of DATA_DIR/uploads imported into the database',
      },
    ]);

    const stored = await storedFiles();
    const [before] = await t.db.select({ fileId: images.fileId }).from(images).where(eq(images.id, kept));
    await importUploadedImages(t.db, uploadsDir, recordingLog());
    expect(await storedFiles()).toBe(stored);
    const [after] = await t.db.select({ fileId: images.fileId }).from(images).where(eq(images.id, kept));
    expect(after).toEqual(before);
  });

  it('says nothing when there is nothing to import', async () => {
    await t.db.delete(images);
    const log = recordingLog();
    await importUploadedImages(t.db, join(uploadsDir, 'never-created'), log);
    expect(log.lines).toEqual([]);
  });
});
