import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from './index.ts';

/*
 * What a list call costs is bounded by what it asks, never by what is stored: an OFFSET page makes
 * the database walk every row before it, so every query schema that takes an `offset` caps it at
 * LIST_OFFSET_MAX (past it, the search narrows the list; docs/decisions.md "Offsets"). Found by
 * walking every exported schema, so a list added tomorrow is held too.
 */
const withOffset = Object.entries(shared as Record<string, unknown>).flatMap(([name, value]) =>
  value instanceof z.ZodObject && 'offset' in value.shape ? [[name, value] as const] : [],
);

describe('every list query with an offset', () => {
  it('is found (the walk is not empty)', () => {
    expect(withOffset.map(([name]) => name)).toEqual(
      expect.arrayContaining(['ListQuerySchema', 'PeopleListQuerySchema']),
    );
  });

  it.each(withOffset)('%s refuses an offset past LIST_OFFSET_MAX, and takes it up to there', (_, schema) => {
    const offset = (schema.shape as Record<string, z.ZodType>).offset!;
    expect(offset.safeParse(String(shared.LIST_OFFSET_MAX)).success).toBe(true);
    for (const far of [shared.LIST_OFFSET_MAX + 1, 9_007_199_254_740_991, 1e300])
      expect(offset.safeParse(String(far)).success, String(far)).toBe(false);
  });
});
