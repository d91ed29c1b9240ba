import { ROLES } from '@flowbox/shared';
import { hashPassword } from '../auth/index.ts';
import type { Db } from '../db/client.ts';
import { findUserByEmail, insertUser } from '../users/index.ts';
import { lockSeeding } from './seed.repo.ts';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/** FLOWBOX_ADMIN_EMAIL / FLOWBOX_ADMIN_PASSWORD: make sure this provider manager exists (DESIGN.md §8). */
export async function ensureAdmin(
  db: Db,
  admin: { email: string; password: string },
  log: Logger,
): Promise<void> {
  const existing = await findUserByEmail(db, admin.email);
  if (existing) {
    if (existing.role !== ROLES.flovea_manager)
      log.warn({ email: admin.email }, 'FLOWBOX_ADMIN_EMAIL belongs to a user who is not a provider manager');
    return;
  }
  const passwordHash = await hashPassword(admin.password);
  const created = await db.transaction(async (tx) => {
    await lockSeeding(tx);
    if (await findUserByEmail(tx, admin.email)) return false;
    await insertUser(tx, {
      email: admin.email,
      username: admin.email,
      firstname: 'Provider',
      lastname: 'Manager',
      role: ROLES.flovea_manager,
      passwordHash,
    });
    return true;
  });
  if (created) log.info({ email: admin.email }, 'provider manager created from FLOWBOX_ADMIN_EMAIL');
}
