import { Readable } from 'node:stream';
import type { Db } from '../db/client.ts';
import type { FileDownload } from '../files/files.http.ts';
import { readFile, type StoredFile } from '../files/files.store.ts';

/** Room for a few images of FIRMWARE_MAX_BYTES: a rollout sends one image to every device. */
export const IMAGE_CACHE_BYTES = 64 * 2 ** 20;

/**
 * The images being downloaded, kept whole in memory (docs/decisions.md "Firmware images served
 * from memory"): a rollout's devices all fetch the same few MiB, and reading them from the file
 * store for each device took a database connection per chunk per device, which the API's calls
 * then waited for. A stored file never changes, so a copy is never stale. The least recently used
 * images leave first once the cache holds more than `maxBytes`; an image larger than that is
 * read from the store each time.
 */
export class ImageCache {
  /** By file id, least recently used first (a Map keeps insertion order). */
  private readonly images = new Map<string, { bytes: Promise<Buffer>; size: number }>();
  private held = 0;

  constructor(private readonly maxBytes = IMAGE_CACHE_BYTES) {}

  /** The file as a download served from memory, read from the store once. */
  async download(db: Db, file: StoredFile): Promise<FileDownload> {
    if (file.byteSize > this.maxBytes) return { file, read: (range) => readFile(db, file, range) };
    const bytes = await this.bytesOf(db, file);
    return {
      file,
      read: (range) => Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
    };
  }

  private bytesOf(db: Db, file: StoredFile): Promise<Buffer> {
    const cached = this.images.get(file.id);
    if (cached) {
      this.images.delete(file.id);
      this.images.set(file.id, cached);
      return cached.bytes;
    }
    const bytes = readWhole(db, file);
    this.images.set(file.id, { bytes, size: file.byteSize });
    this.held += file.byteSize;
    // A failed read is not kept: the next download tries again.
    bytes.catch(() => {
      if (this.images.get(file.id)?.bytes === bytes) this.forget(file.id);
    });
    for (const id of this.images.keys()) {
      if (this.held <= this.maxBytes) break;
      this.forget(id);
    }
    return bytes;
  }

  /** Bytes held now (tests). */
  get heldBytes(): number {
    return this.held;
  }

  private forget(id: string): void {
    const entry = this.images.get(id);
    if (!entry) return;
    this.images.delete(id);
    this.held -= entry.size;
  }
}

async function readWhole(db: Db, file: StoredFile): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of readFile(db, file)) pieces.push(piece as Buffer);
  return Buffer.concat(pieces, file.byteSize);
}
