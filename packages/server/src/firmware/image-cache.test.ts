import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteFiles, writeFile, type StoredFile } from '../files/files.store.ts';
import { openTestDatabase } from '../test/harness.ts';
import { ImageCache } from './image-cache.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const store = (bytes: Buffer) =>
  writeFile(database.db, bytes, { contentType: 'application/octet-stream', maxBytes: 2 ** 24 });
const bytesOf = async (stream: Readable) => {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
};

describe('the firmware image cache', () => {
  it('serves whole images and ranges from one read, and keeps serving them once the stored file is gone', async () => {
    const bytes = randomBytes(600_000);
    const file = await store(bytes);
    const cache = new ImageCache(1_000_000);
    expect(await bytesOf((await cache.download(database.db, file)).read())).toEqual(bytes);
    await deleteFiles(database.db, [file.id]);
    const again = await cache.download(database.db, file);
    expect(await bytesOf(again.read({ start: 300_000, end: 599_999 }))).toEqual(bytes.subarray(300_000));
  });

  it('lets the least recently used image go past its budget, and reads an image larger than it from the store', async () => {
    const [a, b, c] = await Promise.all([
      store(randomBytes(400_000)),
      store(randomBytes(400_000)),
      store(randomBytes(400_000)),
    ]);
    const cache = new ImageCache(1_000_000);
    for (const file of [a!, b!, a!, c!]) await cache.download(database.db, file);
    expect(cache.heldBytes).toBe(800_000);
    // b went (a was used after it): gone from the store, it can no longer be served, and its
    // failed read is not kept (it made room by letting a go: c alone is left).
    await deleteFiles(database.db, [b!.id]);
    await expect(cache.download(database.db, b!)).rejects.toThrow(/no chunk/);
    expect(cache.heldBytes).toBe(400_000);
    const large: StoredFile = await store(randomBytes(1_200_000));
    const download = await cache.download(database.db, large);
    expect((await bytesOf(download.read())).length).toBe(1_200_000);
    expect(cache.heldBytes).toBe(400_000);
  });
});
