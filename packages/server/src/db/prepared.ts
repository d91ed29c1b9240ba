import type { Db } from './client.ts';

/**
 * A query built once for each database handle, then only run: drizzle otherwise builds the SQL
 * text of every call again (a fifth of a simple read's server time, docs/performance.md "API"),
 * and on PostgreSQL a named statement is parsed and planned once per connection. A transaction's
 * handle is new each time, so inside one it is built as before.
 */
export function preparedPerDb<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
