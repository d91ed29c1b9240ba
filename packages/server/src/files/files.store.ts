import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { fileChunks, files } from '../db/schema.ts';
import { AppError } from '../errors.ts';

/**
 * Bytes per stored chunk. A read holds one chunk in memory at a time (and the stream one more), so
 * this bounds a download's memory whatever the file's size; 256 KiB keeps a 5 MiB image at 20 rows
 * and a firmware range request to the one or two chunks it covers.
 */
export const CHUNK_SIZE = 256 * 1024;

/** A stored file's record; its bytes are read with `readFile`. */
export type StoredFile = {
  id: string;
  byteSize: number;
  /** Lower-case hex SHA-256 of the whole file: its strong ETag, and a device's check of a download. */
  sha256: string;
  contentType: string;
  chunkSize: number;
  createdAt: Date;
};

/** Bytes `start` to `end`, both included (as in `Content-Range`). */
export type ByteRange = { start: number; end: number };

/** What `writeFile` stores: a stream (an upload), any async iterable of bytes, or bytes at hand. */
export type FileSource = Readable | AsyncIterable<Uint8Array> | Uint8Array;

/**
 * Stores a file, reading the source as it comes: memory holds one chunk, whatever the file's size.
 * Everything is written in one transaction (a savepoint when `db` is already one, so the file
 * commits with the row that owns it): a source that fails or passes `maxBytes` (413
 * errors.file_too_large) leaves nothing behind, and the source is not read further.
 */
export async function writeFile(
  db: Db,
  source: FileSource,
  options: { contentType: string; maxBytes: number },
): Promise<StoredFile> {
  return db.transaction(async (tx) => {
    const id = randomUUID();
    const [created] = await tx
      .insert(files)
      .values({ id, byteSize: 0, sha256: '', contentType: options.contentType, chunkSize: CHUNK_SIZE })
      .returning({ createdAt: files.createdAt });
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(CHUNK_SIZE);
    let [byteSize, filled, index] = [0, 0, 0];
    // The chunk buffer is reused once its insert has been awaited: the driver has read it by then.
    const storeChunk = async () => {
      await tx.insert(fileChunks).values({ fileId: id, index, data: chunk.subarray(0, filled) });
      [filled, index] = [0, index + 1];
    };
    for await (const piece of pieces(source)) {
      byteSize += piece.length;
      if (byteSize > options.maxBytes) throw fileTooLarge(options.maxBytes);
      hash.update(piece);
      for (let offset = 0; offset < piece.length;) {
        const copied = piece.copy(chunk, filled, offset);
        [filled, offset] = [filled + copied, offset + copied];
        if (filled === CHUNK_SIZE) await storeChunk();
      }
    }
    if (filled > 0) await storeChunk();
    const sha256 = hash.digest('hex');
    await tx.update(files).set({ byteSize, sha256 }).where(eq(files.id, id));
    return {
      id,
      byteSize,
      sha256,
      contentType: options.contentType,
      chunkSize: CHUNK_SIZE,
      createdAt: created!.createdAt,
    };
  });
}

export async function findFile(db: Db, id: string): Promise<StoredFile | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id));
  return row;
}

/**
 * The file's bytes, or those of `range`, as a stream that fetches one chunk at a time when the
 * reader asks for it: only the chunks the range covers are read. A file deleted while it is read
 * ends the stream with an error.
 */
export function readFile(db: Db, file: StoredFile, range?: ByteRange): Readable {
  const { start, end } = range ?? { start: 0, end: file.byteSize - 1 };
  // Not object mode, and a one-byte high-water mark: the stream reads ahead by one chunk at most.
  return Readable.from(chunksOf(db, file, start, end), { objectMode: false, highWaterMark: 1 });
}

async function* chunksOf(db: Db, file: StoredFile, start: number, end: number): AsyncGenerator<Buffer> {
  if (end < start) return;
  const [first, last] = [Math.floor(start / file.chunkSize), Math.floor(end / file.chunkSize)];
  for (let index = first; index <= last; index++) {
    const [row] = await db
      .select({ data: fileChunks.data })
      .from(fileChunks)
      .where(and(eq(fileChunks.fileId, file.id), eq(fileChunks.index, index)));
    if (!row) throw new Error(`file ${file.id} has no chunk ${index} (deleted while being read?)`);
    const offset = index * file.chunkSize;
    const data = Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
    yield data.subarray(Math.max(start - offset, 0), end - offset + 1);
  }
}

/** Deletes files and their chunks; the rows pointing at them must be gone or repointed first. */
export async function deleteFiles(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(files).where(inArray(files.id, ids));
}

async function* pieces(source: FileSource): AsyncGenerator<Buffer> {
  if (source instanceof Uint8Array) {
    yield Buffer.from(source.buffer, source.byteOffset, source.byteLength);
    return;
  }
  for await (const piece of source as AsyncIterable<Uint8Array | string>)
    yield typeof piece === 'string'
      ? Buffer.from(piece)
      : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
}

/** The limit in the message is in MiB, with one decimal when it is not whole. */
function fileTooLarge(maxBytes: number): AppError {
  const mib = Math.round((maxBytes / 2 ** 20) * 10) / 10;
  return new AppError('errors.file_too_large', { max: mib });
}
