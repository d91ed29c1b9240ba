import { PROTOCOL_VERSION, type Telemetry } from '@flowbox/shared';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { buildings, customers, flowboxes, sites, zones } from '../db/schema.ts';
import { hashSecret, newDeviceSecret } from '../flowboxes/index.ts';
import { insertCredential } from '../flowboxes/flowboxes.repo.ts';

/*
 * Test and benchmark helpers for telemetry (issue #6): zones in a building of a given time zone and
 * flowboxes paired directly through the repository with real credentials (the three pairing steps
 * are tested in flowboxes/), and readings as a device builds them.
 */

export type TelemetryZone = { customerId: string; siteId: string; buildingId: string; zoneId: string };

/** A customer, site and building in `timezone`, with `count` zones. */
export async function createZones(db: Db, timezone: string, count = 1): Promise<TelemetryZone[]> {
  const [customer] = await db
    .insert(customers)
    .values({ name: `Telemetry ${timezone}` })
    .returning();
  const [site] = await db.insert(sites).values({ customerId: customer!.id, name: 'Site' }).returning();
  const [building] = await db
    .insert(buildings)
    .values({
      siteId: site!.id,
      name: 'Building',
      type: 'factory',
      address: '1 rue de la Paix',
      city: 'Paris',
      zipCode: '75002',
      country: 'FR',
      timezone,
      volumeUnit: 'liter',
      currency: 'EUR',
      firstDayOfWeek: 'monday',
      weekend: ['saturday', 'sunday'],
    })
    .returning();
  const rows = await db
    .insert(zones)
    .values(
      Array.from({ length: count }, (_, i) => ({
        buildingId: building!.id,
        name: `Zone ${i + 1}`,
        profile: 'office' as const,
        flowboxModel: 'one_inch_v1' as const,
        waterTemperature: 'cold' as const,
      })),
    )
    .returning();
  return rows.map((z) => ({
    customerId: customer!.id,
    siteId: site!.id,
    buildingId: building!.id,
    zoneId: z.id,
  }));
}

export type PairedDevice = { serial: string; flowboxId: string; zone: TelemetryZone; password: string };

/** A flowbox paired in the zone (state ready) with a live device secret, written directly. */
export async function pairDirectly(
  db: Db,
  zone: TelemetryZone,
  serial = uniqueSerial(),
): Promise<PairedDevice> {
  const password = newDeviceSecret();
  const [row] = await db
    .insert(flowboxes)
    .values({ serial, zoneId: zone.zoneId, pairingState: 'ready' })
    .returning();
  await insertCredential(db, {
    serial,
    flowboxId: row!.id,
    secretHash: hashSecret(password),
    issuedAt: new Date(),
  });
  return { serial, flowboxId: row!.id, zone, password };
}

export const uniqueSerial = (prefix = 'TLM') => `${prefix}-${randomBytes(5).toString('hex').toUpperCase()}`;

/** A reading ending at `at`, of `liters` over `intervalS` seconds. */
export function reading(
  seq: number,
  at: Date | string,
  liters = 1,
  intervalS = 60,
  climate = true,
): Telemetry {
  return {
    v: PROTOCOL_VERSION,
    seq,
    at: typeof at === 'string' ? at : at.toISOString(),
    interval_s: intervalS,
    volume_l: liters,
    flow_s: Math.min(intervalS, Math.round(liters)),
    temperature_c: climate ? 19.5 : null,
    humidity_pct: climate ? 48 : null,
  };
}
