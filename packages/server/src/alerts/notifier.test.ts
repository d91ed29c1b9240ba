import { ROLES } from '@flowbox/shared';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alerts, emails, users, zones } from '../db/schema.ts';
import {
  buildingBody,
  createUser,
  createWorldApp,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { JobRunner } from '../jobs/index.ts';
import { alertEmailsJob } from './alert-emails.job.ts';
import { AlertNotifier } from './notifier.ts';

const INTERVAL = 30 * 60_000;
let t: TestApp;
let w: World;
let cmA: ApiClient;
let zoneA1: string;
let zoneA2: string;

beforeAll(async () => {
  ({ t, w, cmA } = await createWorldApp());
  const building = async (siteId: string) => {
    const site = `/v1/customers/${w.customers.a.id}/sites/${siteId}`;
    const id = (await cmA.post(`${site}/buildings/create`, buildingBody())).json<{ id: string }>().id;
    return (await cmA.post(`${site}/buildings/${id}/zones/create`, zoneBody({ name: 'Kitchen' }))).json<{
      id: string;
    }>().id;
  };
  zoneA1 = await building(w.sites.a1.id);
  zoneA2 = await building(w.sites.a2.id);
  const french = await createUser(t.db, {
    email: 'cm.fr@test.io',
    role: ROLES.customer_manager,
    customerId: w.customers.a.id,
  });
  await t.db.update(users).set({ language: 'fr', firstname: 'Françoise' }).where(eq(users.id, french.id));
  const muted = await createUser(t.db, {
    email: 'cm.muted@test.io',
    role: ROLES.customer_manager,
    customerId: w.customers.a.id,
  });
  await t.db.update(users).set({ alertNotificationEnabled: false }).where(eq(users.id, muted.id));
  const noDysfunction = await createUser(t.db, {
    email: 'cm.nodys@test.io',
    role: ROLES.customer_manager,
    customerId: w.customers.a.id,
  });
  await t.db
    .update(users)
    .set({ alertsSettings: { flowbox_dysfunction: { email: false } } })
    .where(eq(users.id, noDysfunction.id));
  // A site manager of a1 who wants no email for this one zone (alerts_instance_settings).
  const zoneOff = await createUser(t.db, {
    email: 'sm.zoneoff@test.io',
    role: ROLES.site_manager,
    customerId: w.customers.a.id,
    siteIds: [w.sites.a1.id],
  });
  await t.db
    .update(users)
    .set({ alertsInstanceSettings: { [zoneA1]: { flowbox_dysfunction: { email: false } } } })
    .where(eq(users.id, zoneOff.id));
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.db.delete(emails);
});

const notifier = () =>
  new AlertNotifier(t.services.context, { escalationIntervalMs: INTERVAL, communicationTimeoutMs: 600_000 });
const alertEmails = () => t.db.select().from(emails).where(eq(emails.kind, 'alert'));
const raise = (
  zoneId: string,
  category: 'flowbox_dysfunction' | 'abnormal_water_consumption_with_ac',
  cause: string,
) =>
  t.db.transaction(async (tx) => {
    const outcome = await t.services.alerts.raise(tx, {
      category,
      zoneId,
      cause,
      flowboxSerial: 'FBX-000042',
      details: { command: 'valve_close' },
    });
    if (!outcome.raised) throw new Error(outcome.reason);
    return outcome.alert;
  });

describe('alert emails', () => {
  it('go once per alert to every customer and site manager in scope whose flags allow it, in their language', async () => {
    await raise(zoneA1, 'flowbox_dysfunction', 'email-once');
    expect(await notifier().runDue()).toBe(1);
    const sent = await alertEmails();
    expect(sent.map((e) => e.to).sort()).toEqual(['cm.a@test.io', 'cm.fr@test.io', 'sm.a@test.io']);
    const fr = sent.find((e) => e.to === 'cm.fr@test.io')!;
    expect(fr.subject).toBe('Alerte Flowbox : Dysfonctionnement du flowbox');
    expect(fr.text).toContain('Bonjour Françoise');
    expect(fr.text).toContain('Zone : Kitchen');
    const en = sent.find((e) => e.to === 'cm.a@test.io')!;
    expect(en.subject).toBe('Flowbox alert: Flowbox dysfunction');
    expect(en.text).toContain('http://flowbox.test/notifications?zone_id=');
    // A repeat of the cause, and later passes, send nothing more.
    await raise(zoneA1, 'flowbox_dysfunction', 'email-once');
    t.clock.advance(2 * INTERVAL);
    expect(await notifier().runDue()).toBe(0);
    expect(await alertEmails()).toHaveLength(3);
  });

  it('reach only the site managers of the alert site, never another customer or the provider', async () => {
    await raise(zoneA2, 'flowbox_dysfunction', 'other-site');
    await notifier().runDue();
    const to = (await alertEmails()).map((e) => e.to);
    expect(to).not.toContain('sm.a@test.io');
    expect(to).not.toContain('cm.b@test.io');
    expect(to).not.toContain('provider@test.io');
    expect(to).toContain('cm.a@test.io');
  });

  it('are not sent for a category whose email flag a provider manager turned off', async () => {
    const provider = await loginAs(t.app, 'provider@test.io');
    expect(
      (await provider.put('/v1/alerts/settings/flowbox_dysfunction/update', { email: false })).statusCode,
    ).toBe(200);
    await raise(zoneA1, 'flowbox_dysfunction', 'email-flag-off');
    expect(await notifier().runDue()).toBe(1);
    expect(await alertEmails()).toHaveLength(0);
    await provider.put('/v1/alerts/settings/flowbox_dysfunction/update', { email: true });
  });

  it('escalate a critical alert at the interval, once with two instances, until it is silenced', async () => {
    const alert = await raise(zoneA1, 'abnormal_water_consumption_with_ac', 'escalation');
    const [one, two] = [notifier(), notifier()];
    await Promise.all([one.runDue(), two.runDue()]);
    const first = await alertEmails();
    // Their opt-outs were for flowbox_dysfunction only.
    expect(first.map((e) => e.to).sort()).toEqual([
      'cm.a@test.io',
      'cm.fr@test.io',
      'cm.nodys@test.io',
      'sm.a@test.io',
      'sm.zoneoff@test.io',
    ]);
    // The test clock runs with real time: a margin of seconds, as a loaded machine takes them.
    t.clock.advance(INTERVAL - 10_000);
    await Promise.all([one.runDue(), two.runDue()]);
    expect(await alertEmails()).toHaveLength(first.length);
    t.clock.advance(20_000);
    await Promise.all([one.runDue(), two.runDue()]);
    const second = await alertEmails();
    expect(second).toHaveLength(2 * first.length);
    expect(
      second.filter((e) => e.subject.startsWith('Reminder: ') || e.subject.startsWith('Rappel : ')),
    ).toHaveLength(first.length);
    const fresh = await loginAs(t.app, 'cm.a@test.io');
    expect((await fresh.post(`/v1/alerts/${alert.id}/silence`)).statusCode).toBe(200);
    t.clock.advance(3 * INTERVAL);
    await Promise.all([one.runDue(), two.runDue()]);
    expect(await alertEmails()).toHaveLength(2 * first.length);
  });
});

describe('the alert email text', () => {
  it('tells a French recipient what happened in a sentence, in the building’s unit and on its clock', async () => {
    const startedAt = t.clock.now();
    await t.db.transaction(async (tx) => {
      const outcome = await t.services.alerts.raise(tx, {
        category: 'abnormal_water_consumption_with_ac',
        zoneId: zoneA1,
        cause: 'automatic_closing',
        details: {
          trigger: 'volume',
          event_started_at: startedAt.toISOString(),
          volume_l: 10.667,
          flow_minutes: 4,
          margin_volume_l: 10,
          margin_minutes: null,
        },
      });
      if (!outcome.raised) throw new Error(outcome.reason);
    });
    await notifier().runDue();
    const fr = (await alertEmails()).find((e) => e.to === 'cm.fr@test.io')!;
    const en = (await alertEmails()).find((e) => e.to === 'cm.a@test.io')!;
    // The building is in Paris and counts in m³ (buildingBody).
    const paris = (language: string) =>
      new Intl.DateTimeFormat(language, {
        timeZone: 'Europe/Paris',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(startedAt);
    expect(fr.text).toContain(`0,011 m³ en 4 min à ${paris('fr-FR')}, au-delà de la marge de 0,01 m³`);
    expect(fr.text).toContain('(heure du bâtiment, Europe/Paris)');
    expect(fr.text).not.toMatch(/volume_l|event_started_at|\d{4}-\d{2}-\d{2}T/);
    expect(en.text).toContain(`0.011 m³ in 4 min at ${paris('en-GB')}, beyond the 0.01 m³ margin`);
  });
});

describe('the alert job', () => {
  it('sweeps as well as emails: a zone put in maintenance mode is told without anyone calling the sweep', async () => {
    // The bug this catches: the job once ran only the emails, so maintenance and silent flowboxes were never raised.
    await t.db.update(zones).set({ maintenanceMode: true }).where(eq(zones.id, zoneA2));
    const active = () =>
      t.db
        .select()
        .from(alerts)
        .where(and(eq(alerts.zoneId, zoneA2), eq(alerts.cause, 'maintenance'), ne(alerts.state, 'resolved')));
    const quiet = { warn: () => undefined, error: () => undefined };
    const job = new JobRunner({ log: quiet }).start(alertEmailsJob(notifier(), 20));
    try {
      await expect.poll(async () => (await active()).length, { timeout: 20_000, interval: 50 }).toBe(1);
      // The emails follow the sweep in the same pass, after its commit: wait for them too.
      await expect
        .poll(async () => (await alertEmails()).map((e) => e.subject), { timeout: 20_000, interval: 50 })
        .toContain('Flowbox alert: Maintenance');
    } finally {
      await job.stop();
      await t.db.update(zones).set({ maintenanceMode: false }).where(eq(zones.id, zoneA2));
    }
  });
});
