import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { openTestDatabase, type TestDatabase } from '../test/harness.ts';
import { checkOpenAlertCounts, foldOpenAlertCounts } from './open-alert-counts.repo.ts';
import { fleetOpenAlertCountsJob } from './fleet-open-alert-counts.job.ts';

/*
 * Each flowbox's count of alerts not resolved (migration 0020), for the provider's fleet list
 * sorted by open alerts (docs/fleet.md "Speed"). Once the triggers' changes are added, the count
 * must equal what the list shows (the flowbox's own alerts not resolved, and its zone's naming no
 * flowbox) after anything any path does to alerts or flowboxes: raw statements here, so that no
 * service is trusted to keep it.
 */

let database: TestDatabase;
let db: Db;
let customerId: string;
let siteId: string;
let buildingId: string;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** What the fleet list shows for each flowbox, counted from the alerts themselves. */
async function counted(): Promise<Record<string, number>> {
  const found = await rows<{ serial: string; n: number }>(sql`
    SELECT f.serial, ((SELECT count(*) FROM alerts a WHERE a.state <> 'resolved' AND a.flowbox_id = f.id)
      + (SELECT count(*) FROM alerts a WHERE a.state <> 'resolved' AND a.flowbox_id IS NULL
          AND a.zone_id = f.zone_id))::int AS n
    FROM flowboxes f`);
  return Object.fromEntries(found.map((r) => [r.serial, Number(r.n)]));
}

/** What the counts say once the changes the triggers appended are added. */
async function kept(): Promise<Record<string, number>> {
  await fleetOpenAlertCountsJob(db).pass();
  const found = await rows<{ serial: string; n: number }>(sql`
    SELECT f.serial, k.n FROM fleet_open_alerts k JOIN flowboxes f ON f.id = k.flowbox_id`);
  return Object.fromEntries(found.map((r) => [r.serial, Number(r.n)]));
}

async function expectKept(): Promise<Record<string, number>> {
  const truth = await counted();
  expect(await kept()).toEqual(truth);
  return truth;
}

async function zone(name: string): Promise<string> {
  const [row] = await rows<{ id: string }>(sql`
    INSERT INTO zones (building_id, name, profile, flowbox_model, water_temperature)
    VALUES (${buildingId}, ${name}, 'office', 'one_inch_v1', 'cold') RETURNING id`);
  return row!.id;
}

async function flowbox(serial: string, zoneId: string): Promise<string> {
  const [row] = await rows<{ id: string }>(sql`
    INSERT INTO flowboxes (serial, zone_id, pairing_state) VALUES (${serial}, ${zoneId}, 'ready') RETURNING id`);
  return row!.id;
}

let causes = 0;
/** An alert in the zone, naming the flowbox or none, open unless told. */
function alertValues(zoneId: string, flowboxId: string | null, state = 'open') {
  causes++;
  return sql`('flowbox_dysfunction', ${`cause-${causes}`}, ${state}, ${customerId}, ${siteId}, ${buildingId},
    ${zoneId}, ${flowboxId}, now(), now())`;
}

async function raise(...alerts: ReturnType<typeof alertValues>[]): Promise<void> {
  await db.execute(sql`
    INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id, flowbox_id,
      opened_at, last_seen_at)
    VALUES ${sql.join(alerts, sql`, `)}`);
}

beforeAll(async () => {
  database = await openTestDatabase({ poolSize: 8 });
  db = database.db;
  [{ id: customerId }] = (await rows<{ id: string }>(
    sql`INSERT INTO customers (name) VALUES ('Counted') RETURNING id`,
  )) as [{ id: string }];
  [{ id: siteId }] = (await rows<{ id: string }>(
    sql`INSERT INTO sites (customer_id, name) VALUES (${customerId}, 'Site') RETURNING id`,
  )) as [{ id: string }];
  [{ id: buildingId }] = (await rows<{ id: string }>(sql`
    INSERT INTO buildings (site_id, name, type, address, city, zip_code, country, timezone, volume_unit,
      currency, first_day_of_week, weekend)
    VALUES (${siteId}, 'Building', 'office', '1 rue', 'Paris', '75001', 'FR', 'Europe/Paris', 'm3', 'EUR',
      'monday', '["saturday","sunday"]'::jsonb) RETURNING id`)) as [{ id: string }];
});
afterAll(() => database.close());

describe("each flowbox's count of open alerts", () => {
  it('follows alerts raised, repeated, resolved, reopened and deleted, and flowboxes created, moved and deleted', async () => {
    const z1 = await zone('Z1');
    const z2 = await zone('Z2');
    const f1 = await flowbox('C-F1', z1);
    const f2 = await flowbox('C-F2', z1);
    await flowbox('C-F3', z2);
    expect(await expectKept()).toEqual({ 'C-F1': 0, 'C-F2': 0, 'C-F3': 0 });

    await raise(alertValues(z1, f1));
    await raise(alertValues(z1, null));
    expect(await expectKept()).toEqual({ 'C-F1': 2, 'C-F2': 1, 'C-F3': 0 });

    // Several in one statement, a resolved one among them.
    await raise(
      alertValues(z1, f1),
      alertValues(z2, null),
      alertValues(z1, f2, 'resolved'),
      alertValues(z1, f2),
    );
    expect(await expectKept()).toEqual({ 'C-F1': 3, 'C-F2': 2, 'C-F3': 1 });

    // A repeat and an email change nothing; silencing keeps it open.
    await db.execute(sql`UPDATE alerts SET last_seen_at = now(), email_rounds = email_rounds + 1`);
    await db.execute(sql`UPDATE alerts SET state = 'silenced' WHERE flowbox_id = ${f1}`);
    expect(await expectKept()).toEqual({ 'C-F1': 3, 'C-F2': 2, 'C-F3': 1 });

    await db.execute(sql`UPDATE alerts SET state = 'resolved', resolved_at = now() WHERE flowbox_id = ${f1}`);
    expect(await expectKept()).toEqual({ 'C-F1': 1, 'C-F2': 2, 'C-F3': 1 });
    await db.execute(sql`UPDATE alerts SET state = 'open', resolved_at = NULL
      WHERE id = (SELECT id FROM alerts WHERE flowbox_id = ${f1} LIMIT 1)`);
    expect(await expectKept()).toEqual({ 'C-F1': 2, 'C-F2': 2, 'C-F3': 1 });

    // F2 moves to Z2: it leaves Z1's zone alert and takes Z2's.
    await db.execute(sql`UPDATE flowboxes SET zone_id = ${z2} WHERE id = ${f2}`);
    await expectKept();
    // A new flowbox counts its zone's open alerts at once.
    await flowbox('C-F4', z1);
    expect((await expectKept())['C-F4']).toBe(1);

    // F1 deleted: its alerts name no flowbox any more, so they count for its zone's others.
    await db.execute(sql`DELETE FROM flowboxes WHERE id = ${f1}`);
    expect((await expectKept())['C-F4']).toBe(2);

    await db.execute(
      sql`DELETE FROM alerts WHERE zone_id = ${z1} AND flowbox_id IS NULL AND cause = 'cause-2'`,
    );
    await expectKept();
    // A zone deleted takes its flowboxes and alerts, and their counts.
    await db.execute(sql`DELETE FROM zones WHERE id = ${z2}`);
    await expectKept();
  });

  it('stays equal to the alerts through a long run of random changes', async () => {
    const zones = [await zone('R1'), await zone('R2'), await zone('R3')];
    const boxes: string[] = [];
    for (let i = 0; i < 6; i++) boxes.push(await flowbox(`R-${i}`, zones[i % 3]!));
    let seed = 20261127;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(list: T[]) => list[random(list.length)]!;
    for (let step = 0; step < 120; step++) {
      const kind = random(7);
      if (kind <= 1) {
        const z = pick(zones);
        await raise(alertValues(z, random(3) === 0 ? null : pick(boxes)), alertValues(pick(zones), null));
      } else if (kind === 2) {
        await db.execute(sql`UPDATE alerts SET state = 'resolved', resolved_at = now()
          WHERE id IN (SELECT id FROM alerts WHERE state <> 'resolved' ORDER BY random() LIMIT 2)`);
      } else if (kind === 3) {
        await db.execute(sql`UPDATE alerts SET state = 'open', resolved_at = NULL
          WHERE id = (SELECT id FROM alerts WHERE state = 'resolved' ORDER BY random() LIMIT 1)`);
      } else if (kind === 4) {
        await db.execute(sql`UPDATE flowboxes SET zone_id = ${pick(zones)} WHERE id = ${pick(boxes)}`);
      } else if (kind === 5) {
        await db.execute(sql`UPDATE alerts SET zone_id = ${pick(zones)}
          WHERE id = (SELECT id FROM alerts WHERE state <> 'resolved' ORDER BY random() LIMIT 1)`);
      } else {
        await db.execute(
          sql`DELETE FROM alerts WHERE id = (SELECT id FROM alerts ORDER BY random() LIMIT 1)`,
        );
      }
      const truth = await counted();
      expect(await kept(), `after step ${step} (change ${kind})`).toEqual(truth);
    }
  });

  it('sets right a count that drifted, and adds the changes a batch at a time', async () => {
    const z = await zone('Drift');
    const f = await flowbox('D-0', z);
    await raise(alertValues(z, f), alertValues(z, f));
    // A count left wrong (as a race between a pairing and a zone-wide alert would leave it).
    await foldOpenAlertCounts(db);
    await db.execute(sql`UPDATE fleet_open_alerts SET n = n + 5 WHERE flowbox_id = ${f}`);
    let fixed = 0;
    for (let pass = 0; pass < 400 && fixed === 0; pass++) fixed = await checkOpenAlertCounts(db);
    expect(fixed).toBeGreaterThan(0);
    expect((await expectKept())['D-0']).toBe(2);
  });

  it.runIf(Boolean(process.env.FLOWBOX_TEST_PG))(
    'counts every alert raised or resolved at once by concurrent transactions',
    async () => {
      const z = await zone('Concurrent');
      const boxes = [await flowbox('K-0', z), await flowbox('K-1', z), await flowbox('K-2', z)];
      // Forty transactions, eight at a time on eight connections, each raising alerts on the three flowboxes in
      // its own order and resolving one, some zone-wide: a lost update would show as a wrong
      // count. A deadlock is retried, as the telemetry writer does.
      const transaction = async (i: number) => {
        const order = i % 2 === 0 ? boxes : [...boxes].reverse();
        for (let attempt = 0; ; attempt++) {
          try {
            await db.transaction(async (tx) => {
              for (const id of order)
                await tx.execute(sql`
                  INSERT INTO alerts (category, cause, state, customer_id, site_id, building_id, zone_id,
                    flowbox_id, opened_at, last_seen_at)
                  VALUES ('flowbox_dysfunction', ${`k-${i}-${id}`}, 'open', ${customerId}, ${siteId},
                    ${buildingId}, ${z}, ${i % 5 === 0 ? null : id}, now(), now())`);
              await tx.execute(sql`UPDATE alerts SET state = 'resolved', resolved_at = now()
                WHERE cause = ${`k-${i}-${order[0]}`}`);
            });
            return;
          } catch (error) {
            const failure = error as { cause?: { code?: string }; code?: string };
            const code = failure.cause?.code ?? failure.code;
            if (code !== '40P01' || attempt > 10) throw error;
          }
        }
      };
      const worker = async (w: number) => {
        for (let i = w; i < 40; i += 8) await transaction(i);
      };
      await Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
      const truth = await expectKept();
      expect(truth['K-0']).toBeGreaterThan(0);
    },
  );
});
