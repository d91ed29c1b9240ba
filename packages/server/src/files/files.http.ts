import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { RangeNotSatisfiable } from '../errors.ts';
import { readFile, type ByteRange, type StoredFile } from './files.store.ts';
import { noneMatch, rangeAnswer } from './ranges.ts';

/** A stored file and the way to read it: what a service hands its route to serve. */
export type FileDownload = { file: StoredFile; read: (range?: ByteRange) => Readable };

export function fileDownload(db: Db, file: StoredFile): FileDownload {
  return { file, read: (range) => readFile(db, file, range) };
}

/** The file's strong ETag: its SHA-256, which changes exactly when its bytes do. */
export function etagOf(file: StoredFile): string {
  return `"${file.sha256}"`;
}

/**
 * Answers a GET of a stored file: 200 whole, 206 for one range (a device resuming a download),
 * 304 when `If-None-Match` names its ETag, 416 (`Content-Range: bytes *\/size`) for a range past
 * its end. Headers the caller set on `reply` (caching, disposition) are kept.
 */
export function sendFile(request: FastifyRequest, reply: FastifyReply, download: FileDownload): FastifyReply {
  const { file } = download;
  const etag = etagOf(file);
  reply.header('etag', etag).header('accept-ranges', 'bytes');
  if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const answer = rangeAnswer(
    file.byteSize,
    { range: request.headers.range, ifRange: header(request, 'if-range') },
    etag,
  );
  if (answer.status === 416) throw new RangeNotSatisfiable(file.byteSize);
  reply.header('content-type', file.contentType);
  if (answer.status === 200) return reply.header('content-length', file.byteSize).send(download.read());
  return reply
    .code(206)
    .header('content-range', `bytes ${answer.start}-${answer.end}/${file.byteSize}`)
    .header('content-length', answer.end - answer.start + 1)
    .send(download.read(answer));
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
