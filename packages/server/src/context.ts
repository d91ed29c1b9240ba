import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';

/** What the domain services are given: the database, the mailer, the clock and the settings they need. */
export type Context = {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  config: Pick<Config, 'publicUrl' | 'accessTokenTtl' | 'refreshTokenTtl' | 'jwtSecret'>;
};
