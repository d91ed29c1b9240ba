import type { Db } from '../db/client.ts';
import type { Job } from '../jobs/index.ts';
import { keepReadingPartitions } from './reading-partitions.repo.ts';

/** How often each instance keeps the raw readings' partitions. */
export const READING_PARTITIONS_MS = 3_600_000;

/**
 * The raw readings' weekly partitions made ahead, adopted from the default partition and dropped
 * past the retention (reading-partitions.repo.ts): a pass at start and then every `everyMs`.
 */
export function readingPartitionsJob(
  db: Db,
  now: () => Date,
  retentionDays: number,
  everyMs = READING_PARTITIONS_MS,
): Job {
  return {
    name: 'reading_partitions',
    everyMs,
    passAtStart: true,
    pass: () => keepReadingPartitions(db, now(), retentionDays),
  };
}
