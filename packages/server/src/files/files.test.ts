import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { fileChunks, files } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { openTestDatabase } from '../test/harness.ts';
import { CHUNK_SIZE, deleteFiles, findFile, readFile, writeFile } from './files.store.ts';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

/** Deterministic bytes, delivered in pieces of uneven sizes, as a network upload arrives. */
const BYTES = randomBytes(3 * CHUNK_SIZE + 12_345);
function* unevenPieces(bytes: Buffer): Generator<Buffer> {
  const sizes = [1, 17, 65_536, 300_000, 4096];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(offset, offset + size);
    offset += size;
  }
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const rowCounts = async () => ({
  files: (await db.select({ n: count() }).from(files))[0]!.n,
  chunks: (await db.select({ n: count() }).from(fileChunks))[0]!.n,
});

describe('storing a file', () => {
  it('streams an upload in, keeping its size and SHA-256, in chunks of CHUNK_SIZE', async () => {
    const file = await writeFile(db, Readable.from(unevenPieces(BYTES)), {
      contentType: 'application/octet-stream',
      maxBytes: 10 * CHUNK_SIZE,
    });
    expect(file).toMatchObject({ byteSize: BYTES.length, sha256: sha256(BYTES), chunkSize: CHUNK_SIZE });
    expect(await findFile(db, file.id)).toEqual(file);
    const chunks = await db
      .select({ index: fileChunks.index })
      .from(fileChunks)
      .where(eq(fileChunks.fileId, file.id));
    expect(chunks.map((c) => c.index).sort()).toEqual([0, 1, 2, 3]);
    expect((await buffer(readFile(db, file))).equals(BYTES)).toBe(true);
  });

  it('stores an empty file, and bytes at hand', async () => {
    const empty = await writeFile(db, Buffer.alloc(0), { contentType: 'text/plain', maxBytes: 10 });
    expect(empty).toMatchObject({ byteSize: 0, sha256: sha256(Buffer.alloc(0)) });
    expect((await buffer(readFile(db, empty))).length).toBe(0);
    const small = await writeFile(db, Buffer.from('hello'), { contentType: 'text/plain', maxBytes: 5 });
    expect((await buffer(readFile(db, small))).toString()).toBe('hello');
  });

  it('refuses a file over the limit with errors.file_too_large, stores nothing and stops reading', async () => {
    const before = await rowCounts();
    let piecesRead = 0;
    async function* endless() {
      for (;;) {
        piecesRead += 1;
        yield Buffer.alloc(64 * 1024, 7);
      }
    }
    const refused = await writeFile(db, endless(), { contentType: 'x/y', maxBytes: 2 * CHUNK_SIZE }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'errors.file_too_large', status: 413, params: { max: 0.5 } });
    expect(piecesRead).toBe(9);
    expect(await rowCounts()).toEqual(before);
  });

  it('leaves nothing when the upload fails half-way', async () => {
    const before = await rowCounts();
    async function* broken() {
      yield Buffer.alloc(CHUNK_SIZE + 1);
      throw new Error('connection reset');
    }
    await expect(writeFile(db, broken(), { contentType: 'x/y', maxBytes: 10 * CHUNK_SIZE })).rejects.toThrow(
      'connection reset',
    );
    expect(await rowCounts()).toEqual(before);
  });

  it('commits with the transaction it is written in, or not at all', async () => {
    const before = await rowCounts();
    await db
      .transaction(async (tx) => {
        await writeFile(tx, BYTES, { contentType: 'x/y', maxBytes: BYTES.length });
        throw new Error('the owning row was refused');
      })
      .catch(() => undefined);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('reading a file', () => {
  it('reads a byte range from the chunks it covers, and only those', async () => {
    const file = await writeFile(db, BYTES, { contentType: 'x/y', maxBytes: BYTES.length });
    const ranges = [
      { start: 0, end: 0 },
      { start: CHUNK_SIZE - 3, end: CHUNK_SIZE + 2 },
      { start: CHUNK_SIZE + 10, end: 3 * CHUNK_SIZE - 1 },
      { start: BYTES.length - 5, end: BYTES.length - 1 },
    ];
    for (const range of ranges)
      expect(
        (await buffer(readFile(db, file, range))).equals(BYTES.subarray(range.start, range.end + 1)),
      ).toBe(true);
    // With the first and last chunks gone, a range inside the middle two still reads: it never asked for them.
    await db.delete(fileChunks).where(and(eq(fileChunks.fileId, file.id), inArray(fileChunks.index, [0, 3])));
    const middle = { start: CHUNK_SIZE, end: 3 * CHUNK_SIZE - 1 };
    expect(
      (await buffer(readFile(db, file, middle))).equals(BYTES.subarray(middle.start, middle.end + 1)),
    ).toBe(true);
    await expect(buffer(readFile(db, file))).rejects.toThrow(/has no chunk 0/);
  });

  it('deletes a file with its chunks', async () => {
    const file = await writeFile(db, BYTES, { contentType: 'x/y', maxBytes: BYTES.length });
    await deleteFiles(db, [file.id]);
    expect(await findFile(db, file.id)).toBeUndefined();
    expect(await db.select().from(fileChunks).where(eq(fileChunks.fileId, file.id))).toEqual([]);
  });
});
