import { localDateTime, ROLES, type AlertCategory, type NotificationPreferences } from '@flowbox/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertOpens, emails, events, pushMessages, users } from '../db/schema.ts';
import { until } from '../flowboxes/testing.ts';
import { decryptPush, TestPushService, testBrowser, type TestBrowser } from '../push/push.testing.ts';
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

/*
 * How each person is told (issue 33, docs/alerts.md "How each person is told", "Quiet hours",
 * "Escalation"): channels per severity, at once or if not opened; quiet hours that hold back what can
 * wait and never a critical alert; a critical alert nobody opened told to the zone's managers. The
 * clock is the app's (`t.clock`), moved by the test; the jobs' passes are called by the test.
 */

const MINUTE = 60_000;

describe('how each person is told of alerts', () => {
  let t: TestApp;
  let w: World;
  let service: TestPushService;
  let zoneId: string;
  let resident: ApiClient;
  let residentId: string;
  let noBrowser: ApiClient;
  let mutedManagerId: string;
  let cmA: ApiClient;
  let browser: TestBrowser;
  let causes = 0;

  beforeAll(async () => {
    service = await new TestPushService().start();
    // The clock moves by tens of minutes: the callers' tokens outlive it.
    t = await createTestApp({ accessTokenTtl: 86_400 });
    w = await createWorld(t.db);
    cmA = await loginAs(t.app, 'cm.a@test.io');
    // Bursts are premium-only by default (spec §6).
    zoneId = await createZone(t, cmA, {
      customerId: w.customers.a.id,
      siteId: w.sites.a1.id,
      name: 'Flat 3',
      premium: true,
    });
    residentId = (
      await createUser(t.db, {
        email: 'resident@test.io',
        role: ROLES.end_user,
        customerId: w.customers.a.id,
        zoneIds: [zoneId],
      })
    ).id;
    await createUser(t.db, {
      email: 'nobrowser@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zoneId],
    });
    // A manager who turned alert notifications off: escalation still reaches them.
    mutedManagerId = (
      await createUser(t.db, {
        email: 'cm.muted@test.io',
        role: ROLES.customer_manager,
        customerId: w.customers.a.id,
      })
    ).id;
    await t.db.update(users).set({ alertNotificationEnabled: false }).where(eq(users.id, mutedManagerId));
    await createUser(t.db, { email: 'plumber@test.io', role: ROLES.plumber, customerId: null });
    resident = await loginAs(t.app, 'resident@test.io');
    noBrowser = await loginAs(t.app, 'nobrowser@test.io');
    browser = testBrowser(service.endpoint('resident'));
    expect((await resident.post('/v1/push/subscriptions', browser.subscription)).statusCode).toBe(201);
    // The managers of the zone keep email only, to tell their messages apart from the resident's.
    for (const email of ['cm.a@test.io', 'sm.a@test.io']) {
      const client = await loginAs(t.app, email);
      expect(
        (await client.put('/v1/notifications/preferences', prefs('now', 'now', 'off', 'now'))).statusCode,
      ).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await service.stop();
  });
  beforeEach(async () => {
    service.requests.length = 0;
    await t.db.delete(emails);
  });

  function prefs(
    criticalPush: 'now' | 'unopened' | 'off',
    criticalEmail: 'now' | 'unopened' | 'off',
    otherPush: 'now' | 'off' = 'off',
    otherEmail: 'now' | 'off' = 'now',
    quiet: NotificationPreferences['quiet_hours'] = null,
  ): NotificationPreferences {
    return {
      channels: {
        critical: { push: criticalPush, email: criticalEmail },
        other: { push: otherPush, email: otherEmail },
      },
      quiet_hours: quiet,
    };
  }

  /** Opens an alert of a new cause in the zone; its pushes and first emails are queued as the app does. */
  async function raise(category: AlertCategory): Promise<string> {
    causes++;
    const alert = await t.db.transaction(async (tx) => {
      const outcome = await t.services.alerts.raise(tx, {
        category,
        zoneId,
        cause: `escalation-${causes}`,
        details: { volume_l: 120, flow_minutes: 35, trigger: 'volume' },
      });
      if (!outcome.raised) throw new Error(outcome.reason);
      return outcome.alert;
    });
    await t.services.alertNotifier.idle();
    await t.services.alertNotifier.pushDue();
    await t.services.alertNotifier.runDue();
    return alert.id;
  }

  const emailsOf = (alertId: string) =>
    t.db
      .select()
      .from(emails)
      .where(eq(emails.kind, 'alert'))
      .then((rows) => rows.filter((e) => e.text.includes(`alert_id=${alertId}`)));
  const queuedPushes = (alertId: string) =>
    t.db.select().from(pushMessages).where(eq(pushMessages.alertId, alertId));

  it('pushes at once and emails only if the alert is still not opened 10 minutes later', async () => {
    expect(
      (await resident.put('/v1/notifications/preferences', prefs('now', 'unopened'))).json(),
    ).toMatchObject({
      channels: { critical: { push: 'now', email: 'unopened' } },
      escalation_minutes: 10,
    });
    const ignored = await raise('abnormal_water_consumption_no_ac');
    const seen = await raise('abnormal_water_consumption_no_ac');
    await until(() => service.requestsTo(browser.endpoint).length >= 2);
    // At once: the push to the resident's browser, no email to the resident, the managers' emails.
    for (const id of [ignored, seen]) {
      const to = (await emailsOf(id)).map((e) => e.to);
      expect(to).not.toContain('resident@test.io');
      expect(to).toEqual(expect.arrayContaining(['cm.a@test.io', 'sm.a@test.io']));
    }
    expect((await resident.post('/v1/alerts/opened', { alert_ids: [seen] })).json()).toEqual({ opened: 1 });
    t.clock.advance(9 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    expect((await emailsOf(ignored)).filter((e) => e.to === 'resident@test.io')).toHaveLength(0);
    t.clock.advance(MINUTE);
    expect(await t.services.alertNotifier.escalateDue()).toBeGreaterThanOrEqual(2);
    const late = (await emailsOf(ignored)).filter((e) => e.to === 'resident@test.io');
    expect(late).toHaveLength(1);
    expect(late[0]!.subject).toMatch(/^Not opened: /);
    expect(late[0]!.text).toContain(
      'You have not opened this critical alert 10 minutes after it was raised.',
    );
    expect((await emailsOf(seen)).filter((e) => e.to === 'resident@test.io')).toHaveLength(0);
  });

  it('uses the next channel at once for someone a push cannot reach', async () => {
    await noBrowser.put('/v1/notifications/preferences', prefs('now', 'unopened'));
    const id = await raise('leakage_detection');
    expect((await emailsOf(id)).filter((e) => e.to === 'nobrowser@test.io').map((e) => e.subject)).toEqual([
      expect.not.stringMatching(/^Not opened/),
    ]);
    t.clock.advance(10 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    // Not twice: the email was its first channel.
    expect((await emailsOf(id)).filter((e) => e.to === 'nobrowser@test.io')).toHaveLength(1);
  });

  it('tells the zone’s managers, whatever their settings, when nobody opened a critical alert in 20 minutes; not when someone did', async () => {
    const nobody = await raise('abnormal_water_consumption_no_ac');
    const opened = await raise('abnormal_water_consumption_no_ac');
    expect((await emailsOf(nobody)).map((e) => e.to)).not.toContain('cm.muted@test.io');
    // A manager who sees it on a screen opens it.
    expect((await cmA.post('/v1/alerts/opened', { alert_ids: [opened] })).statusCode).toBe(200);
    t.clock.advance(10 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    expect((await emailsOf(nobody)).map((e) => e.to)).not.toContain('cm.muted@test.io');
    t.clock.advance(10 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    const escalated = (await emailsOf(nobody)).filter((e) => e.subject.startsWith('Nobody answered: '));
    expect(escalated.map((e) => e.to).sort()).toEqual(['cm.a@test.io', 'cm.muted@test.io', 'sm.a@test.io']);
    expect(escalated[0]!.text).toContain('you are told as a manager of its zone');
    expect((await emailsOf(opened)).filter((e) => e.subject.startsWith('Nobody answered: '))).toHaveLength(0);
    const logged = await t.db
      .select()
      .from(events)
      .where(and(eq(events.actionName, 'alert_escalated'), inArray(events.objectId, [nobody, opened])));
    expect(logged.map((e) => [e.objectId, e.origin, e.customerId])).toEqual([
      [nobody, 'system', w.customers.a.id],
    ]);
    // Once: later passes escalate it no further.
    t.clock.advance(30 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    expect((await emailsOf(nobody)).filter((e) => e.subject.startsWith('Nobody answered: '))).toHaveLength(3);
  });

  it('tells a suspended account nothing, by any channel', async () => {
    await t.db.update(users).set({ suspendedAt: t.clock.now() }).where(eq(users.id, residentId));
    try {
      const id = await raise('leakage_detection');
      await t.services.pushDelivery.idle();
      expect((await emailsOf(id)).map((e) => e.to)).not.toContain('resident@test.io');
      const told = service
        .requestsTo(browser.endpoint)
        .map((r) => JSON.parse(decryptPush(browser, r.body)) as { alert_id: string })
        .filter((payload) => payload.alert_id === id);
      expect(told).toEqual([]);
    } finally {
      await t.db.update(users).set({ suspendedAt: null }).where(eq(users.id, residentId));
    }
  });

  it('does not escalate a silenced or resolved alert', async () => {
    const silenced = await raise('leakage_detection');
    const resolved = await raise('leakage_detection');
    await cmA.post(`/v1/alerts/${silenced}/silence`);
    await cmA.post(`/v1/alerts/${resolved}/resolve`);
    t.clock.advance(25 * MINUTE);
    await t.services.alertNotifier.escalateDue();
    for (const id of [silenced, resolved])
      expect(
        (await emailsOf(id)).filter((e) => /^(Not opened|Nobody answered)/.test(e.subject)),
      ).toHaveLength(0);
  });

  it('holds what can wait until the end of the quiet hours, and never a critical alert', async () => {
    // Quiet hours around now, in UTC: from an hour ago until an hour from now.
    const now = t.clock.now();
    const hhmm = (at: number) => localDateTime(at, 'UTC').slice(11);
    const quiet = {
      start: hhmm(now.getTime() - 60 * MINUTE),
      end: hhmm(now.getTime() + 60 * MINUTE),
      time_zone: 'UTC',
    };
    const saved = await resident.put(
      '/v1/notifications/preferences',
      prefs('now', 'now', 'now', 'now', quiet),
    );
    expect(saved.statusCode).toBe(200);
    const waits = await raise('flowbox_communication');
    const critical = await raise('leakage_detection');
    const end = new Date(Math.floor((now.getTime() + 60 * MINUTE) / MINUTE) * MINUTE);
    const [held] = (await emailsOf(waits)).filter((e) => e.to === 'resident@test.io');
    expect(held!.nextAttemptAt!.getTime()).toBe(end.getTime());
    const heldPushes = await queuedPushes(waits);
    expect(heldPushes).toHaveLength(1);
    expect(heldPushes[0]!.nextAttemptAt!.getTime()).toBe(end.getTime());
    expect(heldPushes[0]!.urgency).toBe('normal');
    // A manager without quiet hours is emailed at once.
    const [managers] = (await emailsOf(waits)).filter((e) => e.to === 'cm.a@test.io');
    expect(managers!.nextAttemptAt ?? null).toBeNull();
    const [now1] = (await emailsOf(critical)).filter((e) => e.to === 'resident@test.io');
    expect(now1!.nextAttemptAt ?? null).toBeNull();
    await until(() => service.requestsTo(browser.endpoint).length >= 1);
    expect((await queuedPushes(critical))[0]!.urgency).toBe('high');
    await resident.put('/v1/notifications/preferences', prefs('now', 'now'));
  });

  describe('the calls: each their own, in scope, bad input refused with nothing written', () => {
    it('answers the defaults until one chooses', async () => {
      await createUser(t.db, {
        email: 'fresh@test.io',
        role: ROLES.site_manager,
        customerId: w.customers.a.id,
        siteIds: [w.sites.a1.id],
      });
      expect(
        (await (await loginAs(t.app, 'fresh@test.io')).get('/v1/notifications/preferences')).json(),
      ).toEqual({
        channels: { critical: { push: 'now', email: 'now' }, other: { push: 'off', email: 'now' } },
        quiet_hours: null,
        escalation_minutes: 10,
      });
    });

    it('logs a change on the person who made it, and nothing for a refused one', async () => {
      const logged = () =>
        t.db
          .select()
          .from(events)
          .where(and(eq(events.objectId, residentId), eq(events.actionName, 'updated')));
      const before = (await logged()).length;
      await resident.put('/v1/notifications/preferences', prefs('now', 'now'));
      const after = await logged();
      expect(after).toHaveLength(before + 1);
      expect(after.at(-1)).toMatchObject({
        objectName: 'user',
        userId: residentId,
        origin: 'web',
        customerId: w.customers.a.id,
        changedFields: ['notification_preferences'],
      });
      await resident.put('/v1/notifications/preferences', prefs('unopened', 'unopened'));
      expect(await logged()).toHaveLength(before + 1);
    });

    it('refuses provider managers and plumbers, who are never told', async () => {
      for (const email of ['provider@test.io', 'plumber@test.io']) {
        const client = await loginAs(t.app, email);
        expect((await client.get('/v1/notifications/preferences')).statusCode).toBe(403);
        expect((await client.put('/v1/notifications/preferences', prefs('now', 'now'))).statusCode).toBe(403);
      }
    });

    it.each([
      [
        'every critical channel waiting to be "not opened"',
        prefs('unopened', 'unopened'),
        'channels.critical',
        'Choose at least one channel at once for critical alerts',
      ],
      [
        '"if not opened" on an alert that is not critical',
        {
          ...prefs('now', 'now'),
          channels: { critical: { push: 'now', email: 'now' }, other: { push: 'unopened', email: 'now' } },
        },
        'channels.other.push',
        'Please select an option',
      ],
      [
        'quiet hours ending when they start',
        prefs('now', 'now', 'off', 'now', { start: '22:00', end: '22:00', time_zone: 'UTC' }),
        'quiet_hours.end',
        'Quiet hours must end at another time than they start',
      ],
      [
        'a time that is not one',
        prefs('now', 'now', 'off', 'now', { start: '25:00', end: '07:00', time_zone: 'UTC' }),
        'quiet_hours.start',
        'Please enter a time as HH:mm',
      ],
      [
        'a time zone that is not one',
        prefs('now', 'now', 'off', 'now', { start: '22:00', end: '07:00', time_zone: 'Mars/Olympus' }),
        'quiet_hours.time_zone',
        'Please select a valid time zone',
      ],
      ['an unknown field', { ...prefs('now', 'now'), sms: 'now' }, '', ''],
    ])('refuses %s', async (_name, body, path, message) => {
      const before = (await resident.get('/v1/notifications/preferences')).json();
      const res = await resident.put('/v1/notifications/preferences', body);
      expect(res.statusCode).toBe(400);
      const error = res.json<{ details?: { path: string; message: string }[] }>();
      if (path)
        expect(error.details).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ path, message: expect.stringContaining(message) }),
          ]),
        );
      expect((await resident.get('/v1/notifications/preferences')).json()).toEqual(before);
    });

    it('records opens only of alerts the caller reads; one of another customer refuses them all', async () => {
      const mine = await raise('leakage_detection');
      const cmB = await loginAs(t.app, 'cm.b@test.io');
      expect((await cmB.post('/v1/alerts/opened', { alert_ids: [mine] })).statusCode).toBe(403);
      const unknown = '00000000-0000-4000-8000-000000000000';
      expect((await noBrowser.post('/v1/alerts/opened', { alert_ids: [mine, unknown] })).statusCode).toBe(
        403,
      );
      expect((await resident.post('/v1/alerts/opened', { alert_ids: [] })).statusCode).toBe(400);
      expect((await resident.post('/v1/alerts/opened', { alert_ids: ['nope'] })).statusCode).toBe(400);
      const rows = await t.db.select().from(alertOpens).where(eq(alertOpens.alertId, mine));
      expect(rows).toEqual([]);
      expect((await resident.post('/v1/alerts/opened', { alert_ids: [mine, mine] })).json()).toEqual({
        opened: 1,
      });
      expect(
        (await t.db.select().from(alertOpens).where(eq(alertOpens.alertId, mine))).map((r) => r.userId),
      ).toEqual([residentId]);
    });
  });
});
