import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { buildings, claimCodes, customers, sites, zones } from '../db/schema.ts';
import { groupedCode, hashClaimCode, newClaimCode } from './activation.ts';

/** A building and zone in `siteId` (a new customer and site when none is given), for registration tests. */
export async function zoneForRegistrations(
  db: Db,
  siteId?: string,
): Promise<{ zoneId: string; siteId: string; customerId: string; buildingId: string }> {
  let site = siteId;
  if (!site) {
    const [customer] = await db
      .insert(customers)
      .values({ name: `Registrations ${Math.random()}` })
      .returning();
    const [row] = await db
      .insert(sites)
      .values({ customerId: customer!.id, name: 'Registrations site' })
      .returning();
    site = row!.id;
  }
  const [building] = await db
    .insert(buildings)
    .values({
      siteId: site,
      name: 'Residence',
      type: 'residential',
      address: '1 rue du Lac',
      city: 'Annecy',
      zipCode: '74000',
      country: 'FR',
      timezone: 'Europe/Paris',
      volumeUnit: 'm3',
      currency: 'EUR',
      firstDayOfWeek: 'monday',
      weekend: ['saturday', 'sunday'],
    })
    .returning();
  const [zone] = await db
    .insert(zones)
    .values({
      buildingId: building!.id,
      name: `Flat ${Math.floor(Math.random() * 1000)}`,
      profile: 'sanitary',
      flowboxModel: 'one_inch_v1',
      waterTemperature: 'cold',
    })
    .returning();
  const [siteRow] = await db.select().from(sites).where(eqId(site));
  return { zoneId: zone!.id, siteId: site, customerId: siteRow!.customerId, buildingId: building!.id };
}

const eqId = (id: string) => eq(sites.id, id);

/** A claim code of the zone, stored as the service stores one; its plaintext, grouped. */
export async function claimCodeFor(
  db: Db,
  zoneId: string,
  options: { autoApprove?: boolean; maxUses?: number | null; expiresAt?: Date } = {},
): Promise<string> {
  const code = newClaimCode();
  await db.insert(claimCodes).values({
    zoneId,
    codeHash: hashClaimCode(code),
    hint: code.slice(-4),
    expiresAt: options.expiresAt ?? new Date(Date.now() + 30 * 86_400_000),
    maxUses: options.maxUses === undefined ? 1 : options.maxUses,
    autoApprove: options.autoApprove ?? false,
  });
  return groupedCode(code);
}
