import { eq } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import type { Db } from '../db/client.ts';
import { appSettings, customers, sites } from '../db/schema.ts';
import { findUserByEmail, insertUser } from '../users/users.repo.ts';

type Logger = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/** FLOWBOX_ADMIN_EMAIL / FLOWBOX_ADMIN_PASSWORD: make sure this provider manager exists (DESIGN.md §8). */
export async function ensureAdmin(
  db: Db,
  admin: { email: string; password: string },
  log: Logger,
): Promise<void> {
  const existing = await findUserByEmail(db, admin.email);
  if (existing) {
    if (existing.role !== 1)
      log.warn({ email: admin.email }, 'FLOWBOX_ADMIN_EMAIL belongs to a user who is not a provider manager');
    return;
  }
  await insertUser(db, {
    email: admin.email,
    username: admin.email,
    firstname: 'Provider',
    lastname: 'Manager',
    role: 1,
    passwordHash: await hashPassword(admin.password),
  });
  log.info({ email: admin.email }, 'provider manager created from FLOWBOX_ADMIN_EMAIL');
}

/** The demo accounts listed in the README: one per role, sharing one password. */
export const DEMO_PASSWORD = 'flowbox-demo-1';
export const DEMO_ACCOUNTS = [
  { email: 'provider@demo.flowbox.local', role: 1, firstname: 'Paula', lastname: 'Provider' },
  { email: 'customer@demo.flowbox.local', role: 2, firstname: 'Claire', lastname: 'Customer' },
  { email: 'site@demo.flowbox.local', role: 3, firstname: 'Samuel', lastname: 'Site' },
] as const;

/** Demo data, seeded once: two customers so tenant scope can be seen at work. */
export async function seedDemo(db: Db, log: Logger): Promise<void> {
  const [done] = await db.select().from(appSettings).where(eq(appSettings.key, 'demo_seeded'));
  if (done) return;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const [acme] = await tx
      .insert(customers)
      .values({
        name: 'Acme Water Services',
        subscriptionDate: '2026-01-15',
        operationsContact: { name: 'Olivia Ops', email: 'ops@acme.example', phone: '+33 1 23 45 67 89' },
        technicalContact: { name: 'Tom Tech', email: 'tech@acme.example', phone: '' },
        administrativeContact: null,
      })
      .returning();
    await tx.insert(customers).values({ name: 'Riverside Homes', subscriptionDate: '2026-03-01' });
    const acmeSites = await tx
      .insert(sites)
      .values([
        { customerId: acme!.id, name: 'Lyon Part-Dieu Campus' },
        { customerId: acme!.id, name: 'Grenoble Residence' },
      ])
      .returning();
    for (const account of DEMO_ACCOUNTS) {
      const existing = await findUserByEmail(tx, account.email);
      if (existing) continue;
      await insertUser(
        tx,
        {
          ...account,
          username: account.email,
          passwordHash,
          customerId: account.role === 1 ? null : acme!.id,
          address: account.role === 1 ? null : '12 rue de la République, 69002 Lyon',
        },
        account.role === 3 ? [acmeSites[0]!.id] : [],
      );
    }
    await tx.insert(appSettings).values({ key: 'demo_seeded', value: true });
  });
  log.info({}, 'demo data seeded');
}
