import { deviceCommands, flowboxes } from '../../db/schema.ts';
import {
  buildingBody,
  createWorld,
  loginAs,
  planBody,
  scheduleBody,
  TINY_PNG,
  zoneBody,
  type ApiClient,
  type TestApp,
} from '../../test/harness.ts';
import type { Pools } from './schema-values.ts';

/** Who the fuzzer calls as: customer A's managers, the provider, and someone not signed in. */
export const ROLES = ['provider', 'customerManager', 'siteManager', 'anonymous'] as const;
export type Role = (typeof ROLES)[number];

/** The ids a path names, in one tenant: customer A's site a1 (own) or customer B's site b1 (other). */
type TenantIds = Record<string, string>;

export type FuzzWorld = {
  own: TenantIds;
  other: TenantIds;
  pools: Pools;
  clients: Record<Exclude<Role, 'anonymous'>, ApiClient>;
};

const EMAILS = {
  provider: 'provider@test.io',
  customerManager: 'cm.a@test.io',
  siteManager: 'sm.a@test.io',
} as const;

/**
 * The two-customer world of the harness with, in sites a1 and b1, everything a path can name: a
 * building with a picture, a floor, a zone allowing scheduled closings with a water point, a
 * schedule, a paired flowbox with a command and an alert; and one pricing plan.
 */
export async function createFuzzWorld(t: TestApp): Promise<FuzzWorld> {
  const w = await createWorld(t.db);
  const provider = await loginAs(t.app, EMAILS.provider);
  const plan = await provider.post('/v1/pricing_plans/create', planBody());
  const hierarchy = async (customerId: string, siteId: string, serial: string): Promise<TenantIds> => {
    const site = `/v1/customers/${customerId}/sites/${siteId}`;
    const buildingId = idOf(await provider.post(`${site}/buildings/create`, buildingBody()));
    const building = `${site}/buildings/${buildingId}`;
    const floorId = idOf(await provider.post(`${building}/floors/create`, { label: 'Ground' }));
    const zoneId = idOf(await provider.post(`${building}/zones/create`, zoneBody()));
    const zone = `${building}/zones/${zoneId}`;
    const waterPointId = idOf(
      await provider.post(`${zone}/water_points/create`, { label: 'Tap', type: 'sink' }),
    );
    await provider.put(`${zone}/update`, { scheduled_closing_authorised: true });
    const scheduleId = idOf(await provider.post(`${zone}/schedules/create`, scheduleBody()));
    const picture = await provider.upload(`${building}/images/picture`, TINY_PNG);
    const imageId = picture.json<{ url: string }>().url.split('/').pop()!;
    const [flowbox] = await t.db
      .insert(flowboxes)
      .values({ serial, zoneId, pairingState: 'ready' })
      .returning();
    const [command] = await t.db
      .insert(deviceCommands)
      .values({
        flowboxId: flowbox!.id,
        name: 'autotest',
        origin: 'web',
        issuedAt: t.clock.now(),
        expiresAt: new Date(t.clock.now().getTime() + 120_000),
        nextAttemptAt: t.clock.now(),
        status: 'pending',
      })
      .returning();
    const raised = await t.db.transaction((tx) =>
      t.services.alerts.raise(tx, { category: 'flowbox_dysfunction', zoneId, cause: 'fuzz', details: {} }),
    );
    if (!raised.raised) throw new Error('no alert raised');
    return {
      customerId,
      siteId,
      buildingId,
      floorId,
      zoneId,
      waterPointId,
      scheduleId,
      imageId,
      flowboxId: flowbox!.id,
      commandId: command!.id,
      alertId: raised.alert.id,
      pricingPlanId: idOf(plan),
    };
  };
  const own = {
    ...(await hierarchy(w.customers.a.id, w.sites.a1.id, 'FUZZ-A-1')),
    floveaManagerId: w.users.provider.id,
    customerManagerId: w.users.cmA.id,
    siteManagerId: w.users.smA.id,
  };
  const other = {
    ...(await hierarchy(w.customers.b.id, w.sites.b1.id, 'FUZZ-B-1')),
    floveaManagerId: w.users.provider.id,
    customerManagerId: w.users.cmB.id,
    siteManagerId: w.users.smB.id,
  };
  return {
    own,
    other,
    pools: {
      ids: [...new Set([...Object.values(own), ...Object.values(other)])],
      // Customer B's managers: taken addresses, whose failed sign-ins throttle no account the fuzzer signs in with.
      emails: [w.users.cmB.email, w.users.smB.email],
    },
    clients: {
      provider,
      customerManager: await loginAs(t.app, EMAILS.customerManager),
      siteManager: await loginAs(t.app, EMAILS.siteManager),
    },
  };
}

function idOf(res: { statusCode: number; body: string; json: <T>() => T }): string {
  if (res.statusCode >= 300) throw new Error(`fuzz world set-up failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

/** The id a path parameter names in a tenant; `managerId` depends on which managers the path lists. */
export function pathId(ids: TenantIds, name: string, path: string): string | undefined {
  if (name !== 'managerId') return ids[name];
  if (path.includes('/flovea_managers/')) return ids.floveaManagerId;
  if (path.includes('/customer_managers/')) return ids.customerManagerId;
  return ids.siteManagerId;
}

/** Signs a role in again when a fuzzed call ended its session (a logout, a password change). */
export async function keepSignedIn(t: TestApp, world: FuzzWorld, role: Role): Promise<void> {
  if (role === 'anonymous') return;
  const me = await world.clients[role].get('/v1/users/me');
  if (me.statusCode === 401) world.clients[role] = await loginAs(t.app, EMAILS[role]);
}
