import type { ByteRange } from './files.store.ts';

/** How to answer a GET of a file of `size` bytes, given its request headers (RFC 9110 §14, §13.1). */
export type RangeAnswer = { status: 200 } | ({ status: 206 } & ByteRange) | { status: 416 };

/**
 * One range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answers 206 with those bytes, clipped to the file;
 * one that starts past the end (or `-0`, or any range of an empty file) answers 416. A header that
 * does not parse, asks for several ranges, or comes with an `If-Range` other than the file's ETag
 * is ignored (RFC 9110 §14.2: a server may), and the whole file answers 200: a client resuming a
 * download of a file that has changed since gets the new one whole.
 */
export function rangeAnswer(
  size: number,
  headers: { range?: string | undefined; ifRange?: string | undefined },
  etag: string,
): RangeAnswer {
  if (headers.range === undefined) return { status: 200 };
  if (headers.ifRange !== undefined && headers.ifRange.trim() !== etag) return { status: 200 };
  const match = /^bytes=(\d*)-(\d*)$/i.exec(headers.range.replace(/\s+/g, ''));
  if (!match || (match[1] === '' && match[2] === '')) return { status: 200 };
  const [first, last] = [match[1]!, match[2]!];
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { status: 416 };
    return { status: 206, start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { status: 200 };
  if (start >= size) return { status: 416 };
  return { status: 206, start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}

/** Whether `If-None-Match` names the ETag (weak comparison, RFC 9110 §13.1.2) or is `*`. */
export function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
