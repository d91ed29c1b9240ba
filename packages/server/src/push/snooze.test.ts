import { ROLES, type AlertCategory } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { events, pushSnoozes } from '../db/schema.ts';
import { until } from '../flowboxes/testing.ts';
import {
  createTestApp,
  createUser,
  createZone,
  createWorld,
  loginAs,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { TestPushService, testBrowser, type TestBrowser } from './push.testing.ts';

/*
 * "Snooze 1 h" from an alert's notification (issue 33, docs/push.md "Snooze"): the caller is pushed
 * no alert of that category in that zone until the snooze ends; another category, another person
 * and the emails are not held back. The push queue checks it when it queues an alert's messages.
 */

describe('snoozing an alert’s pushes', () => {
  let t: TestApp;
  let w: World;
  let service: TestPushService;
  let cmA: ApiClient;
  let zoneA1: string;
  const browsers = {} as Record<'cmA' | 'colleague', TestBrowser>;
  let causes = 0;

  beforeAll(async () => {
    service = await new TestPushService().start();
    // The clock moves an hour on: the callers' tokens outlive it.
    t = await createTestApp({ accessTokenTtl: 86_400 });
    w = await createWorld(t.db);
    cmA = await loginAs(t.app, 'cm.a@test.io');
    // Bursts are premium-only by default (spec §6).
    zoneA1 = await createZone(t, cmA, {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      name: 'Laundry',
      premium: true,
    });
    await createUser(t.db, {
      email: 'cm.colleague@test.io',
      role: ROLES.customer_manager,
      customerId: w.customers.a.id,
    });
    const clients = { cmA, colleague: await loginAs(t.app, 'cm.colleague@test.io') };
    for (const name of Object.keys(clients) as (keyof typeof clients)[]) {
      browsers[name] = testBrowser(service.endpoint(`snooze-${name}`));
      expect(
        (await clients[name].post('/v1/push/subscriptions', browsers[name].subscription)).statusCode,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await service.stop();
  });
  beforeEach(() => {
    service.requests.length = 0;
  });

  /** Opens an alert of a new cause in the zone and waits until its pushes are sent: the browsers told. */
  async function pushed(
    category: AlertCategory,
    expected: number,
  ): Promise<{ told: (keyof typeof browsers)[]; alertId: string }> {
    causes++;
    const alert = await t.db.transaction(async (tx) => {
      const outcome = await t.services.alerts.raise(tx, {
        category,
        zoneId: zoneA1,
        cause: `snooze-${causes}`,
        details: { volume_l: 120, flow_minutes: 35, trigger: 'volume' },
      });
      if (!outcome.raised) throw new Error(outcome.reason);
      return outcome.alert;
    });
    await until(() => service.requests.length >= expected);
    await t.services.alertNotifier.idle();
    await t.services.alertNotifier.pushDue();
    await t.services.pushDelivery.idle();
    await t.services.pushDelivery.deliverDue();
    const told = (Object.keys(browsers) as (keyof typeof browsers)[]).filter(
      (name) => service.requestsTo(browsers[name].endpoint).length > 0,
    );
    service.requests.length = 0;
    return { told, alertId: alert.id };
  }

  it('holds back the caller’s pushes of that category in that zone until it ends, and no one else’s', async () => {
    const { told, alertId } = await pushed('abnormal_water_consumption_no_ac', 2);
    expect(told).toEqual(['cmA', 'colleague']);

    const res = await cmA.post(`/v1/alerts/${alertId}/snooze`, { minutes: 60 });
    expect(res.statusCode).toBe(200);
    const until60 = new Date(t.clock.now().getTime() + 60 * 60_000);
    const body = res.json<{ until: string; zone_id: string; category: string; alert_id: string }>();
    expect(body).toMatchObject({
      alert_id: alertId,
      zone_id: zoneA1,
      category: 'abnormal_water_consumption_no_ac',
    });
    expect(Math.abs(new Date(body.until).getTime() - until60.getTime())).toBeLessThan(5_000);

    // A new burst in the zone: the colleague is told, the snoozer is not.
    expect((await pushed('abnormal_water_consumption_no_ac', 1)).told).toEqual(['colleague']);

    // The snooze ends an hour later: the next one reaches both again.
    t.clock.advance(60 * 60_000 + 1_000);
    expect((await pushed('abnormal_water_consumption_no_ac', 2)).told).toEqual(['cmA', 'colleague']);
  });

  it('lets another critical category of the snoozed zone through: a new kind of trouble is told', async () => {
    const { alertId } = await pushed('abnormal_water_consumption_no_ac', 2);
    expect((await cmA.post(`/v1/alerts/${alertId}/snooze`, { minutes: 120 })).statusCode).toBe(200);
    expect((await pushed('abnormal_water_consumption_with_ac', 2)).told).toEqual(['cmA', 'colleague']);
    expect((await pushed('abnormal_water_consumption_no_ac', 1)).told).toEqual(['colleague']);
  });

  it('a later snooze moves the end, one row for the user, zone and category; the activity log tells it', async () => {
    const { alertId } = await pushed('abnormal_water_consumption_no_ac', 1);
    await cmA.post(`/v1/alerts/${alertId}/snooze`, { minutes: 15 });
    await cmA.post(`/v1/alerts/${alertId}/snooze`, { minutes: 1440 });
    const rows = await t.db
      .select()
      .from(pushSnoozes)
      .where(and(eq(pushSnoozes.userId, w.users.cmA.id), eq(pushSnoozes.zoneId, zoneA1)));
    const burstRows = rows.filter((r) => r.category === 'abnormal_water_consumption_no_ac');
    expect(burstRows).toHaveLength(1);
    expect(burstRows[0]!.until.getTime() - t.clock.now().getTime()).toBeGreaterThan(1439 * 60_000);
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.actionName, 'alert_snoozed'), eq(events.objectId, alertId)));
    expect(logged.map((e) => e.changedFields)).toEqual([
      ['abnormal_water_consumption_no_ac'],
      ['abnormal_water_consumption_no_ac'],
    ]);
    expect(logged[0]).toMatchObject({ userId: w.users.cmA.id, origin: 'web', zoneId: zoneA1 });
  });

  it('takes 15 to 1,440 minutes, and refuses an alert the caller does not read, writing nothing', async () => {
    const { alertId } = await pushed('abnormal_water_consumption_no_ac', 1);
    const before = await t.db.select().from(pushSnoozes);
    for (const minutes of [14, 1441, 30.5])
      expect((await cmA.post(`/v1/alerts/${alertId}/snooze`, { minutes })).json()).toMatchObject({
        code: 'errors.validation',
      });
    const cmB = await loginAs(t.app, 'cm.b@test.io');
    expect((await cmB.post(`/v1/alerts/${alertId}/snooze`, { minutes: 60 })).statusCode).toBe(403);
    expect(await t.db.select().from(pushSnoozes)).toEqual(before);
  });
});
