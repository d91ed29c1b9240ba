// Benchmark of automatic closing (issue #8): how long from the committed telemetry reading that
// crosses a zone's margin to the safety close command published to its device, while a few thousand
// simulated devices report. Embedded MQTT broker and the server in this process; PGlite, then
// PostgreSQL (FLOWBOX_TEST_PG, default the local one; BENCH_SAFETY_PG=0 skips it).
// Measured in the server: the end of the crossing reading's batch transaction (the rules hook runs
// last in it, so this is at most the commit) to the moment the close leaves through the broker.
// Also measured from the device: its publish of the crossing reading to the close arriving, and to
// the alert's Web Push message reaching the push service of the zone's resident (issue 33, docs/push.md
// "Reading → notification sent"): a push service on loopback (push/push.testing.ts) stands in for the
// vendors', the server's web-push request and encryption are the real ones.
// Knobs: BENCH_DEVICES (2000), BENCH_ZONES (200), BENCH_BURSTS (60), BENCH_PERIOD_S (10).
import { randomUUID } from 'node:crypto';
import { deviceTopic, encodePayload, PROTOCOL_VERSION, ROLES } from '@flowbox/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { buildApp } from '../packages/server/src/app.ts';
import { pushSubscriptions, users, userZones, zoneAutomation } from '../packages/server/src/db/schema.ts';
import { TestPushService, testBrowser } from '../packages/server/src/push/push.testing.ts';
import { startDeviceMessaging } from '../packages/server/src/mqtt/messaging.ts';
import { createZones, pairDirectly, type PairedDevice } from '../packages/server/src/telemetry/testing.ts';
import { freePort, openTestDatabase, testConfig } from '../packages/server/src/test/harness.ts';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 2000);
const ZONES = Number(process.env.BENCH_ZONES ?? 200);
const BURSTS = Number(process.env.BENCH_BURSTS ?? 60);
/** Each background device reports once per period (interval_s), spread over it. */
const PERIOD_S = Number(process.env.BENCH_PERIOD_S ?? 10);
const WARMUP_MS = 5000;
const BURST_SPREAD_MS = 20_000;

type Figures = { serverMs: number[]; deviceMs: number[]; pushMs: number[] };

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
};

async function run(driver: 'pglite' | 'postgres'): Promise<Figures> {
  if (driver === 'pglite') delete process.env.FLOWBOX_TEST_PG;
  else process.env.FLOWBOX_TEST_PG ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = await openTestDatabase();
  const { app, services } = await buildApp({ config: testConfig(), db: database.db, logger: false });
  const zones = await createZones(database.db, 'Europe/Paris', ZONES + BURSTS);
  // The burst zones (one device each) close at 10 L; the others have no margins but run detection.
  const burstZones = zones.slice(ZONES);
  await database.db.insert(zoneAutomation).values(
    burstZones.map((z) => ({
      zoneId: z.zoneId,
      automaticClosingEnabled: true,
      volumeMarginEnabled: true,
      volumeMargin: '10',
      volumeMarginUnit: 'liter' as const,
    })),
  );
  const background: PairedDevice[] = [];
  for (let i = 0; i < DEVICES; i++)
    background.push(await pairDirectly(database.db, zones[i % ZONES]!, `SAFE-${String(i).padStart(6, '0')}`));
  const bursting: PairedDevice[] = [];
  for (const [i, zone] of burstZones.entries())
    bursting.push(await pairDirectly(database.db, zone, `BURST-${String(i).padStart(4, '0')}`));

  // Each burst zone's resident, with one browser subscribed on the loopback push service.
  const pushService = await new TestPushService().start();
  const residents = await database.db
    .insert(users)
    .values(
      burstZones.map((z, i) => ({
        email: `resident-${i}@bench.test`,
        username: `resident-${i}@bench.test`,
        firstname: 'Resident',
        lastname: String(i),
        role: ROLES.end_user,
        customerId: z.customerId,
      })),
    )
    .returning({ id: users.id });
  await database.db
    .insert(userZones)
    .values(residents.map((r, i) => ({ userId: r.id, zoneId: burstZones[i]!.zoneId })));
  await database.db.insert(pushSubscriptions).values(
    residents.map((r, i) => {
      const { keys } = testBrowser(pushService.endpoint(`BURST-${String(i).padStart(4, '0')}`)).subscription;
      return {
        userId: r.id,
        endpoint: pushService.endpoint(`BURST-${String(i).padStart(4, '0')}`),
        p256dh: keys.p256dh,
        auth: keys.auth,
      };
    }),
  );

  const committedAt = new Map<string, number>();
  services.telemetry.register({
    name: 'bench-safety',
    inTransaction: async (_tx, readings) => {
      const now = performance.now();
      for (const r of readings) if (r.serial.startsWith('BURST-')) committedAt.set(r.serial, now);
    },
  });
  const publishedAt = new Map<string, number>();
  const send = services.deviceLink.send.bind(services.deviceLink);
  services.deviceLink.send = (serial, kind, message) => {
    const sent = send(serial, kind, message);
    if (sent && kind === 'commands' && !publishedAt.has(serial)) publishedAt.set(serial, performance.now());
    return sent;
  };

  const port = await freePort();
  const silent = {
    info: () => undefined,
    warn: () => undefined,
    error: (o: object, m: string) => console.error(m, o),
  };
  const messaging = await startDeviceMessaging({
    mqttUrl: undefined,
    port,
    host: '127.0.0.1',
    ctx: services.context,
    link: services.deviceLink,
    flowboxes: services.flowboxes,
    commands: services.commands,
    telemetry: services.telemetry,
    log: silent,
  });
  const url = `mqtt://127.0.0.1:${port}`;
  const connect = (d: { serial: string; password: string }) =>
    mqtt.connectAsync(url, {
      username: d.serial,
      password: d.password,
      clientId: d.serial,
      reconnectPeriod: 0,
    });
  const clients: MqttClient[] = [];
  for (let i = 0; i < background.length; i += 100)
    clients.push(...(await Promise.all(background.slice(i, i + 100).map(connect))));
  const burstClients = await Promise.all(bursting.map(connect));
  const receivedAt = new Map<string, number>();
  const sentAt = new Map<string, number>();
  for (const [i, client] of burstClients.entries()) {
    const serial = bursting[i]!.serial;
    await client.subscribeAsync(deviceTopic(serial, 'commands'), { qos: 1 });
    client.on('message', () => {
      if (!receivedAt.has(serial)) receivedAt.set(serial, performance.now());
    });
  }

  // Background load: every device reports every PERIOD_S, a little water now and then.
  const seqs = new Map<string, number>();
  const reading = (serial: string, liters: number, flowS = liters > 0 ? Math.min(PERIOD_S, 3) : 0) => {
    const seq = (seqs.get(serial) ?? 0) + 1;
    seqs.set(serial, seq);
    return encodePayload({
      v: PROTOCOL_VERSION,
      seq,
      at: new Date().toISOString(),
      sent_at: new Date().toISOString(),
      interval_s: PERIOD_S,
      volume_l: liters,
      flow_s: flowS,
      temperature_c: 18,
      humidity_pct: 50,
    });
  };
  let published = 0;
  const timers = clients.map((client, i) => {
    const serial = background[i]!.serial;
    const tick = () => {
      const liters = Math.random() < 0.2 ? Math.round(Math.random() * 3000) / 1000 : 0;
      client.publish(
        deviceTopic(serial, 'telemetry'),
        reading(serial, liters),
        { qos: 1 },
        () => (published += 1),
      );
    };
    const start = setTimeout(
      () => {
        tick();
        timers.push(setInterval(tick, PERIOD_S * 1000));
      },
      Math.random() * PERIOD_S * 1000,
    );
    return start;
  });
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  const startCount = published;
  const started = performance.now();

  // Each burst device sends one reading of 50 L at a random moment, its water running the whole
  // interval (still running: docs/automation.md "Whatever the delivery" closes only then): past its
  // 10 L margin at once.
  await Promise.all(
    burstClients.map(
      (client, i) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            const serial = bursting[i]!.serial;
            sentAt.set(serial, performance.now());
            client.publish(deviceTopic(serial, 'telemetry'), reading(serial, 50, PERIOD_S), { qos: 1 }, () =>
              resolve(),
            );
          }, Math.random() * BURST_SPREAD_MS),
        ),
    ),
  );
  const pushedAt = () => {
    const first = new Map<string, number>();
    for (const r of pushService.requests) {
      const serial = r.path.split('/').at(-1)!;
      if (!first.has(serial)) first.set(serial, r.at);
    }
    return first;
  };
  const deadline = performance.now() + 10_000;
  while (
    (receivedAt.size < bursting.length || pushedAt().size < bursting.length) &&
    performance.now() < deadline
  )
    await new Promise((resolve) => setTimeout(resolve, 50));
  const pushes = pushedAt();
  const rate = ((published - startCount) * 1000) / (performance.now() - started);

  for (const t of timers) clearTimeout(t);
  for (const t of timers) clearInterval(t);
  await Promise.all([...clients, ...burstClients].map((c) => c.endAsync(true)));
  await messaging.close();
  await app.close();
  await database.close();
  await pushService.stop();

  const serverMs: number[] = [];
  const deviceMs: number[] = [];
  const pushMs: number[] = [];
  for (const { serial } of bursting) {
    const committed = committedAt.get(serial);
    const publishedClose = publishedAt.get(serial);
    if (committed !== undefined && publishedClose !== undefined) serverMs.push(publishedClose - committed);
    const sent = sentAt.get(serial);
    const received = receivedAt.get(serial);
    if (sent !== undefined && received !== undefined) deviceMs.push(received - sent);
    const pushed = pushes.get(serial);
    if (sent !== undefined && pushed !== undefined) pushMs.push(pushed - sent);
  }
  const fmt = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `${driver}: ${DEVICES} devices reporting every ${PERIOD_S} s (${rate.toFixed(0)} readings/s measured), ` +
      `${bursting.length} bursts, ${serverMs.length} closes published, ${receivedAt.size} received, ` +
      `${pushes.size} alerts pushed to their resident`,
  );
  console.log(
    `  committed crossing reading → close published: p50 ${fmt(quantile(serverMs, 0.5))}, ` +
      `p99 ${fmt(quantile(serverMs, 0.99))}, max ${fmt(Math.max(...serverMs))}`,
  );
  console.log(
    `  device publishes the reading → device receives the close: p50 ${fmt(quantile(deviceMs, 0.5))}, ` +
      `p99 ${fmt(quantile(deviceMs, 0.99))}, max ${fmt(Math.max(...deviceMs))}`,
  );
  console.log(
    `  device publishes the reading → its alert's push message reaches the push service: p50 ` +
      `${fmt(quantile(pushMs, 0.5))}, p99 ${fmt(quantile(pushMs, 0.99))}, max ${fmt(Math.max(...pushMs))}`,
  );
  // A bench that measured nothing says so and fails: the bursts stopped closing once (the readings
  // lacked `sent_at`, and a reading not known fresh is judged past: docs/automation.md).
  if (receivedAt.size < bursting.length || pushes.size < bursting.length) {
    console.error(
      `  FAILED: ${bursting.length} bursts, ${receivedAt.size} closes and ${pushes.size} pushes arrived`,
    );
    process.exitCode = 1;
  }
  return { serverMs, deviceMs, pushMs };
}

console.log(`Safety benchmark (${randomUUID().slice(0, 8)}): automatic closing under load`);
await run('pglite');
if (process.env.BENCH_SAFETY_PG !== '0') await run('postgres');
process.exit(process.exitCode ?? 0);
