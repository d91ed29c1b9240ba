import type { Db } from '../../packages/server/src/db/client.ts';
import { createZones, pairDirectly } from '../../packages/server/src/telemetry/testing.ts';

/** A paired device's broker account: its serial (user name and client id) and secret. */
export type PairedBenchDevice = { serial: string; password: string };

/**
 * `count` flowboxes paired directly (state ready, a live secret each), serials BENCH-000000 on, spread
 * over `zones` zones of one building; `concurrency` pairings at a time (the pool's connections).
 */
export async function pairBenchDevices(
  db: Db,
  count: number,
  zones: number,
  concurrency = 1,
): Promise<PairedBenchDevice[]> {
  const places = await createZones(db, 'Europe/Paris', zones);
  const devices: PairedBenchDevice[] = [];
  for (let i = 0; i < count; i += concurrency) {
    const paired = await Promise.all(
      Array.from({ length: Math.min(concurrency, count - i) }, (_, k) =>
        pairDirectly(db, places[(i + k) % places.length]!, `BENCH-${String(i + k).padStart(6, '0')}`),
      ),
    );
    devices.push(...paired.map((d) => ({ serial: d.serial, password: d.password })));
  }
  return devices;
}
