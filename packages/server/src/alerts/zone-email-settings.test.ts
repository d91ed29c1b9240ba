import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import {
  buildingBody,
  createWorldApp,
  loginAs,
  zoneBody,
  type ApiClient,
  type TestApp,
  type World,
} from '../test/harness.ts';

/*
 * A user's per-zone alert email settings (`alerts_instance_settings`, docs/alerts.md "Who is told"),
 * saved through the profile update of the user's role: only zones the user is told about, only the
 * eight categories; a refusal in the catalogue's words, and nothing written.
 */

let t: TestApp;
let w: World;
let provider: ApiClient;
let cmA: ApiClient;
let smA: ApiClient;
const zoneOf = {} as Record<'a1' | 'a2' | 'b1', string>;
const GHOST = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  ({ t, w, provider, cmA, smA } = await createWorldApp());
  for (const site of ['a1', 'a2', 'b1'] as const) {
    const customer = site === 'b1' ? w.customers.b.id : w.customers.a.id;
    const path = `/v1/customers/${customer}/sites/${w.sites[site].id}/buildings`;
    const building = (await provider.post(`${path}/create`, buildingBody())).json().id as string;
    zoneOf[site] = (
      await provider.post(`${path}/${building}/zones/create`, zoneBody({ name: `Zone ${site}` }))
    ).json().id as string;
  }
});
afterAll(() => t.close());

const A = () => `/v1/customers/${w.customers.a.id}`;
const smAUrl = () => `${A()}/site_managers/${w.users.smA.id}/update`;
const cmAUrl = () => `${A()}/customer_managers/${w.users.cmA.id}/update`;
const storedOf = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]!.alertsInstanceSettings;

describe('per-zone alert email settings', () => {
  it('a site manager saves an override for a zone of its site, and reads it back', async () => {
    const settings = { [zoneOf.a1]: { leakage_detection: { email: false } } };
    const res = await smA.put(smAUrl(), { alerts_instance_settings: settings });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.alerts_instance_settings).toEqual(settings);
    smA = await loginAs(t.app, 'sm.a@test.io');
    expect((await smA.get('/v1/users/me')).json().alerts_instance_settings).toEqual(settings);
  });

  it.each([
    ['a zone of a site not assigned to it', () => zoneOf.a2],
    ["a zone of another customer's", () => zoneOf.b1],
    ['a zone that does not exist', () => GHOST],
  ])('a site manager is refused %s, in EN and FR, and nothing is written', async (_what, zone) => {
    const before = await storedOf(w.users.smA.id);
    const body = {
      alerts_instance_settings: { [zoneOf.a1]: {}, [zone()]: { maintenance: { email: false } } },
    };
    const english = await smA.put(smAUrl(), body);
    expect(english.statusCode).toBe(400);
    expect(english.json()).toEqual({
      code: 'errors.invalid_alert_zones',
      message: 'One of the zones does not exist or is not one this user is told about',
      details: [
        {
          path: `alerts_instance_settings.${zone()}`,
          message: 'One of the zones does not exist or is not one this user is told about',
        },
      ],
    });
    const french = await smA.request('PUT', smAUrl(), body, { 'accept-language': 'fr' });
    expect(french.json().message).toBe(
      "Une des zones n'existe pas ou ne fait pas partie de celles dont cet utilisateur est averti",
    );
    expect(await storedOf(w.users.smA.id)).toEqual(before);
  });

  it('a customer manager may name any zone of its customer, not another customer’s', async () => {
    const ok = await cmA.put(cmAUrl(), {
      alerts_instance_settings: { [zoneOf.a1]: { maintenance: { email: false } }, [zoneOf.a2]: {} },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    cmA = await loginAs(t.app, 'cm.a@test.io');
    const refused = await cmA.put(cmAUrl(), { alerts_instance_settings: { [zoneOf.b1]: {} } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('errors.invalid_alert_zones');
  });

  it("checks the zones against the edited user's sites, also when the same call changes them", async () => {
    // A customer manager editing its site manager: a2 is not the site manager's...
    const refused = await cmA.put(smAUrl(), { alerts_instance_settings: { [zoneOf.a2]: {} } });
    expect(refused.statusCode).toBe(400);
    // ...unless the same call gives it site a2.
    const moved = await cmA.put(smAUrl(), {
      site_id: [w.sites.a1.id, w.sites.a2.id],
      alerts_instance_settings: { [zoneOf.a2]: { maintenance: { email: true } } },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    await cmA.put(smAUrl(), { site_id: [w.sites.a1.id], alerts_instance_settings: {} });
  });

  const BAD: [string, () => object, () => string][] = [
    [
      'an unknown category in a zone',
      () => ({ alerts_instance_settings: { [zoneOf.a1]: { fire: { email: false } } } }),
      () => `alerts_instance_settings.${zoneOf.a1}`,
    ],
    [
      'an unknown category in the user settings',
      () => ({ alerts_settings: { fire: { email: false } } }),
      () => 'alerts_settings',
    ],
    [
      'a zone key that is not an id',
      () => ({ alerts_instance_settings: { 'zone-1': {} } }),
      () => 'alerts_instance_settings.zone-1',
    ],
    [
      'an email flag that is not a boolean',
      () => ({ alerts_instance_settings: { [zoneOf.a1]: { maintenance: { email: 'no' } } } }),
      () => `alerts_instance_settings.${zoneOf.a1}.maintenance.email`,
    ],
  ];
  it.each(BAD)(
    'refuses %s with "This value is not valid" (FR too), and writes nothing',
    async (_what, body, path) => {
      const before = await t.db.select().from(users).where(eq(users.id, w.users.smA.id));
      for (const [language, message] of [
        ['en', 'This value is not valid'],
        ['fr', "Cette valeur n'est pas valide"],
      ] as const) {
        const res = await smA.request('PUT', smAUrl(), body(), { 'accept-language': language });
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().details).toContainEqual({ path: path(), message });
      }
      expect(await t.db.select().from(users).where(eq(users.id, w.users.smA.id))).toEqual(before);
    },
  );
});
