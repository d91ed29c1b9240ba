import { describe, expect, it } from 'vitest';
import { noneMatch, rangeAnswer } from './ranges.ts';

const ETAG = '"abc"';
const answer = (range?: string, ifRange?: string, size = 1000) => rangeAnswer(size, { range, ifRange }, ETAG);

describe('answering a Range header (RFC 9110 §14)', () => {
  it.each([
    ['bytes=0-99', { status: 206, start: 0, end: 99 }],
    ['bytes=100-', { status: 206, start: 100, end: 999 }],
    ['bytes=-100', { status: 206, start: 900, end: 999 }],
    ['bytes=-5000', { status: 206, start: 0, end: 999 }],
    ['bytes=990-5000', { status: 206, start: 990, end: 999 }],
    ['bytes=999-999', { status: 206, start: 999, end: 999 }],
    ['bytes=1000-', { status: 416 }],
    ['bytes=1000-1001', { status: 416 }],
    ['bytes=-0', { status: 416 }],
    ['bytes=0-1,5-9', { status: 200 }],
    ['bytes=9-1', { status: 200 }],
    ['bytes=-', { status: 200 }],
    ['items=0-1', { status: 200 }],
  ])('answers %s with %j', (range, expected) => {
    expect(answer(range)).toEqual(expected);
  });

  it('answers the whole file without a Range header', () => {
    expect(answer()).toEqual({ status: 200 });
  });

  it('finds every range of an empty file unsatisfiable', () => {
    expect(answer('bytes=0-', undefined, 0)).toEqual({ status: 416 });
    expect(answer('bytes=-1', undefined, 0)).toEqual({ status: 416 });
  });

  it('honours If-Range only when it names the ETag exactly', () => {
    expect(answer('bytes=10-', ETAG)).toEqual({ status: 206, start: 10, end: 999 });
    expect(answer('bytes=10-', '"other"')).toEqual({ status: 200 });
    expect(answer('bytes=10-', `W/${ETAG}`)).toEqual({ status: 200 });
    expect(answer('bytes=10-', 'Wed, 21 Oct 2026 07:28:00 GMT')).toEqual({ status: 200 });
  });
});

describe('If-None-Match', () => {
  it('matches the ETag in a list, weakly, or *', () => {
    expect(noneMatch(undefined, ETAG)).toBe(false);
    expect(noneMatch('"x", W/"abc"', ETAG)).toBe(true);
    expect(noneMatch('*', ETAG)).toBe(true);
    expect(noneMatch('"abd"', ETAG)).toBe(false);
  });
});
