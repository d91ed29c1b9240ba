import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, plumbers } from '../db/schema.ts';
import { openTestDatabase, type TestDatabase } from '../test/harness.ts';
import { nearestPlumbers } from './plumbers.repo.ts';

// Found by the fuzz step: a site at a latitude of 1.9e-158 degrees made PostgreSQL refuse the
// distance (`value out of range: underflow`), a 500 on both databases.
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

describe('the nearest plumbers', () => {
  it('are answered for coordinates a few 1e-158 degrees apart, distances in kilometres', async () => {
    const [customer] = await database.db.insert(customers).values({ name: 'Tiny' }).returning();
    await database.db.insert(plumbers).values([
      { customerId: customer!.id, company: 'Next door', latitude: 1.868417099065954e-158, longitude: 1e-200 },
      { customerId: customer!.id, company: 'Lyon', latitude: 45.7, longitude: 4.8 },
    ]);
    const tiny = 1.868417099065954e-158;
    const found = await nearestPlumbers(database.db, customer!.id, { latitude: tiny, longitude: tiny }, 5);
    expect(found.map((p) => [p.company, p.distance_km])).toEqual([
      ['Next door', 0],
      ['Lyon', 5103.4],
    ]);
  });
});
