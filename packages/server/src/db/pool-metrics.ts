import pg from 'pg';
import type { Db } from './client.ts';

/**
 * What the pool needs of the instance's metrics (http/metrics.ts `InstanceMetrics`): gauges read
 * when scraped. Named here so that the data layer imports nothing above it.
 */
type Gauges = {
  gaugeFrom<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    read: () => { labels?: Partial<Record<L, string>>; value: number }[],
  ): void;
};

/**
 * The PostgreSQL pool's connections: in use, idle, and the queries waiting for one (a queue that
 * grows means the pool is too small for the load, or the database too slow). PGlite is one
 * in-process connection: none of these.
 */
export function poolMetrics(metrics: Gauges, db: Db): void {
  const client: unknown = (db as { $client?: unknown }).$client;
  if (!(client instanceof pg.Pool)) return;
  const pool = client;
  metrics.gaugeFrom('db_pool_connections', 'Pooled database connections, by state', ['state'], () => [
    { labels: { state: 'in_use' }, value: pool.totalCount - pool.idleCount },
    { labels: { state: 'idle' }, value: pool.idleCount },
  ]);
  metrics.gaugeFrom('db_pool_waiting', 'Queries waiting for a free pooled connection', [], () => [
    { value: pool.waitingCount },
  ]);
  metrics.gaugeFrom('db_pool_max', 'The most connections the pool opens (DATABASE_POOL_SIZE)', [], () => [
    { value: pool.options.max ?? 10 },
  ]);
}
