import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, flowboxes } from '../db/schema.ts';
import { createZones, pairDirectly, uniqueSerial, type TelemetryZone } from '../telemetry/testing.ts';
import { createUser, createWorldApp, loginAs, type ApiClient, type TestApp } from '../test/harness.ts';

/*
 * spec §2 customer "number of flowboxes": the flowboxes paired in the customer's zones, counted for
 * real on the list, the overview and the provider's dashboard (issue 15).
 */

let t: TestApp;
let provider: ApiClient;
let cmA: ApiClient;
let mine: TelemetryZone[];
let cmMine: ApiClient;

beforeAll(async () => {
  ({ t, provider, cmA } = await createWorldApp());
  mine = await createZones(t.db, 'Europe/Paris', 2);
  await t.db.update(customers).set({ name: 'Counted' }).where(eq(customers.id, mine[0]!.customerId));
  await createUser(t.db, {
    email: 'cm.counted@test.io',
    role: ROLES.customer_manager,
    customerId: mine[0]!.customerId,
  });
  cmMine = await loginAs(t.app, 'cm.counted@test.io');
});
afterAll(() => t.close());

const info = (client: ApiClient, customerId: string) => client.get(`/v1/customers/${customerId}/info`);
const listed = async (search: string) => {
  const res = await provider.get(`/v1/customers/list?search=${search}`);
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: { name: string; flowbox_count: number }[] }).items;
};

/** How many statements the database receives while `run` runs (the driver's own query calls). */
async function statementsDuring(run: () => Promise<unknown>): Promise<number> {
  const client = (t.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const original = client.query;
  let statements = 0;
  // The connection guard defines `query` as a configurable, read-only property on PGlite.
  Object.defineProperty(client, 'query', {
    configurable: true,
    writable: true,
    value: function (this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    },
  });
  try {
    await run();
  } finally {
    Object.defineProperty(client, 'query', { configurable: true, writable: true, value: original });
  }
  return statements;
}

describe('a customer’s flowbox count', () => {
  it('counts the flowboxes paired in its zones, not those still pairing', async () => {
    expect((await info(provider, mine[0]!.customerId)).json()).toMatchObject({ flowbox_count: 0 });
    await pairDirectly(t.db, mine[0]!);
    await pairDirectly(t.db, mine[1]!);
    // Prepared, not yet validated: not paired.
    await t.db
      .insert(flowboxes)
      .values({ serial: uniqueSerial(), zoneId: mine[1]!.zoneId, pairingState: 'pending' });
    expect((await info(provider, mine[0]!.customerId)).json()).toMatchObject({ flowbox_count: 2 });
    expect((await info(cmMine, mine[0]!.customerId)).json()).toMatchObject({ flowbox_count: 2 });
    expect(await listed('Counted')).toEqual([expect.objectContaining({ name: 'Counted', flowbox_count: 2 })]);
    expect(await listed('Customer')).toEqual([
      expect.objectContaining({ name: 'Customer A', flowbox_count: 0 }),
      expect.objectContaining({ name: 'Customer B', flowbox_count: 0 }),
    ]);
  });

  it('drops when a flowbox leaves', async () => {
    const extra = await pairDirectly(t.db, mine[0]!);
    expect((await info(provider, mine[0]!.customerId)).json()).toMatchObject({ flowbox_count: 3 });
    await t.db.delete(flowboxes).where(eq(flowboxes.id, extra.flowboxId));
    expect((await info(provider, mine[0]!.customerId)).json()).toMatchObject({ flowbox_count: 2 });
  });

  it('is not shown to another customer’s manager', async () => {
    expect([403, 404]).toContain((await info(cmA, mine[0]!.customerId)).statusCode);
    expect((await cmA.get('/v1/customers/list')).statusCode).toBe(403);
  });

  it('costs one grouped query per page, however many customers and flowboxes there are', async () => {
    const listPage = () => provider.get('/v1/customers/list?limit=50');
    const before = await statementsDuring(listPage);
    // Other customers, with zones and paired flowboxes of their own.
    for (let i = 0; i < 5; i++) {
      const zones = await createZones(t.db, `Europe/Paris ${i}`, 2);
      for (const zone of zones) await pairDirectly(t.db, zone);
    }
    const after = await statementsDuring(listPage);
    expect(after).toBe(before);
    expect(before).toBeGreaterThan(0);
    const page = (await listPage()).json() as { items: { name: string; flowbox_count: number }[] };
    expect(page.items.filter((c) => c.name.startsWith('Telemetry'))).toEqual(
      Array.from({ length: 5 }, () => expect.objectContaining({ flowbox_count: 2 })),
    );
    expect(page.items.find((c) => c.name === 'Counted')).toMatchObject({ flowbox_count: 2 });
  });
});
