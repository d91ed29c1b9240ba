import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client.ts';

const journalFile = join(import.meta.dirname, '../../drizzle/meta/_journal.json');

type Journal = { entries: { tag: string; when: number }[] };

/** The newest migration this build knows: its name and the time drizzle records for it. */
function newestMigration(): { tag: string; when: number } {
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  return journal.entries.at(-1)!;
}

/**
 * `true` when the database holds every migration this build knows (docs/operations.md "Health
 * checks"): an instance started on a database restored from an older backup, or whose migrations
 * a newer instance has not yet finished, is not ready. Drizzle records each migration applied with
 * its journal time; a newer build's later ones change nothing here.
 */
export async function migrationsApplied(db: Db): Promise<true | string> {
  const newest = newestMigration();
  try {
    const result = (await db.execute(
      sql`SELECT max(created_at) AS newest FROM drizzle.__drizzle_migrations`,
    )) as unknown as { rows: { newest: string | number | null }[] };
    const applied = Number(result.rows[0]?.newest ?? 0);
    return applied >= newest.when ? true : `not applied: migration ${newest.tag}`;
  } catch (error) {
    return `not applied: ${error instanceof Error ? error.message : String(error)}`;
  }
}
