import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { HierarchyNode } from './db/scope.ts';
import type { Mailer } from './mail/mailer.ts';

/** What the domain services are given: the database, the mailer, the clock and the settings they need. */
export type Context = {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  config: Pick<Config, 'publicUrl' | 'accessTokenTtl' | 'refreshTokenTtl' | 'jwtSecret'>;
};

/**
 * What a zone's, building's, site's or customer's deletion takes with it, in its transaction before
 * its own delete (docs/hierarchy.md "Deleting, and what happens below"): the flowboxes below are
 * retired and the images deleted, each by its own domain. app.ts composes it, so that a place
 * imports neither. It answers the serials of the retired flowboxes, to cut off once committed.
 */
export type RemoveBelow = (
  tx: Db,
  node: HierarchyNode,
  by: { id: string; name: string },
  at: Date,
) => Promise<string[]>;
