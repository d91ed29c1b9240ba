import { ROLES } from '@flowbox/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimCodes,
  emails,
  events,
  flowboxes,
  registrations,
  users,
  userSites,
  userZones,
} from '../db/schema.ts';
import {
  ApiClient,
  createTestApp,
  createUser,
  createWorld,
  loginAs,
  siteManagerWithout,
  type TestApp,
  type World,
} from '../test/harness.ts';
import { zoneForRegistrations } from './testing.ts';

/*
 * End users' registration (docs/permissions.md "Registration"): claim codes issued by a zone's
 * managers, the same answer whatever is sent, the emailed confirmation, the managers' review.
 */

let t: TestApp;
let w: World;
let cmA: ApiClient;
let smA: ApiClient;
let zone: { zoneId: string; siteId: string; customerId: string; buildingId: string };
let other: typeof zone;
const anonymous = (language?: 'en' | 'fr') => new ApiClient(t.app, language);
let sequence = 0;

/** A registration from its own client address, so that the per-address limit stays out of the way. */
async function register(body: Record<string, unknown>, language: 'en' | 'fr' = 'en') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v1/users/register',
    payload: body,
    remoteAddress: `10.77.${sequence >> 8}.${sequence & 255}`,
    headers: { 'accept-language': language },
  });
  return { statusCode: res.statusCode, body: res.body };
}

beforeAll(async () => {
  t = await createTestApp({ accessTokenTtl: 3600 });
  w = await createWorld(t.db);
  [cmA, smA] = await Promise.all([loginAs(t.app, 'cm.a@test.io'), loginAs(t.app, 'sm.a@test.io')]);
  zone = await zoneForRegistrations(t.db, w.sites.a1.id);
  other = await zoneForRegistrations(t.db, w.sites.a1.id);
});
afterAll(() => t.close());

const codesPath = (z = zone) =>
  `/v1/customers/${z.customerId}/sites/${z.siteId}/buildings/${z.buildingId}/zones/${z.zoneId}/claim_codes`;

async function issue(body: Record<string, unknown> = {}, as = cmA, z = zone): Promise<string> {
  const res = await as.post(`${codesPath(z)}/create`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().code as string;
}

function person(overrides: Record<string, unknown> = {}) {
  const n = ++sequence;
  return {
    firstname: 'Rita',
    lastname: `Resident${n}`,
    email: `resident${n}@test.io`,
    password: 'resident-pass-1',
    language: 'en',
    terms_accepted: true,
    ...overrides,
  };
}

async function mailsTo(to: string) {
  await t.services.auth.settled();
  return t.db.select().from(emails).where(eq(emails.to, to));
}

async function confirmLink(to: string): Promise<string> {
  const mail = (await mailsTo(to)).find((m) => m.kind === 'registration_confirm');
  const token = mail?.text.match(/token=([\w-]+)/)?.[1];
  if (!token) throw new Error(`no confirmation email for ${to}`);
  return decodeURIComponent(token);
}

const pendingOf = async (as: ApiClient, email: string) =>
  (
    (await as.get(`/v1/customers/${w.customers.a.id}/registrations/list?status=pending`)).json().items as {
      id: string;
      email: string;
    }[]
  ).find((r) => r.email === email);

describe('claim codes', () => {
  it('are issued by the zone’s managers, shown once, and stored hashed', async () => {
    const res = await smA.post(`${codesPath()}/create`, { max_uses: 3, expires_in_days: 10 });
    expect(res.statusCode).toBe(201);
    const issued = res.json();
    expect(issued.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(issued).toMatchObject({ max_uses: 3, uses: 0, auto_approve: false, state: 'active' });
    expect(issued.hint).toBe(issued.code.slice(-4));
    const [row] = await t.db.select().from(claimCodes).where(eq(claimCodes.id, issued.id));
    expect(JSON.stringify(row)).not.toContain(issued.code.replace(/-/g, ''));
    const listed = (await cmA.get(`${codesPath()}/list`)).json().items;
    expect(listed.find((c: { id: string }) => c.id === issued.id)).not.toHaveProperty('code');
    const [line] = await t.db.select().from(events).where(eq(events.objectId, issued.id));
    expect(line).toMatchObject({ actionName: 'created', objectName: 'claim_code', objectLabel: issued.hint });
  });

  it('are refused to end users, plumbers and other customers’ managers', async () => {
    await Promise.all([
      createUser(t.db, {
        email: 'eu.codes@test.io',
        role: ROLES.end_user,
        customerId: w.customers.a.id,
        zoneIds: [zone.zoneId],
      }),
      createUser(t.db, {
        email: 'pl.codes@test.io',
        role: ROLES.plumber,
        customerId: w.customers.a.id,
        siteIds: [w.sites.a1.id],
      }),
    ]);
    for (const email of ['eu.codes@test.io', 'pl.codes@test.io', 'cm.b@test.io']) {
      const client = await loginAs(t.app, email);
      expect((await client.post(`${codesPath()}/create`, {})).statusCode).toBe(403);
      expect((await client.get(`${codesPath()}/list`)).statusCode).toBe(403);
    }
  });

  it('once revoked, registers nobody', async () => {
    const res = await cmA.post(`${codesPath()}/create`, {});
    const revoked = await cmA.post(`${codesPath()}/${res.json().id}/revoke`, {});
    expect(revoked.json().state).toBe('revoked');
    const body = person({ claim_code: res.json().code });
    expect((await register(body)).statusCode).toBe(201);
    expect(await mailsTo(body.email)).toEqual([]);
  });
});

describe('registering with a claim code', () => {
  it('confirms by the emailed link, then a manager approves: the end user signs in and sees only its zone', async () => {
    const code = await issue();
    const body = person({ claim_code: code.toLowerCase().replace(/-/g, ' ') });
    const res = await register(body);
    expect(res.statusCode).toBe(201);
    // Not the managers' business until the address is confirmed.
    expect(await pendingOf(cmA, body.email)).toBeUndefined();

    const confirmed = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().status).toBe('pending');
    expect(
      (await anonymous().post('/v1/users/token', { email: body.email, password: body.password })).statusCode,
    ).toBe(401);

    const pending = await pendingOf(smA, body.email);
    expect(pending).toMatchObject({ zone_id: zone.zoneId, site_id: w.sites.a1.id, status: 'pending' });
    const approved = await smA.post(
      `/v1/customers/${w.customers.a.id}/registrations/${pending!.id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('approved');
    expect((await mailsTo(body.email)).map((m) => m.kind)).toContain('registration_approved');

    const endUser = await anonymous().login(body.email, body.password);
    const me = (await endUser.get('/v1/users/me')).json();
    expect(me).toMatchObject({ role: ROLES.end_user, role_name: 'end_user', zone_id: [zone.zoneId] });
    const zones = (await endUser.get(`/v1/customers/${w.customers.a.id}/zones/list`)).json();
    expect(zones.items.map((z: { id: string }) => z.id)).toEqual([zone.zoneId]);
    expect((await endUser.get(`${codesPath(other).replace('/claim_codes', '')}/info`)).statusCode).toBe(403);
    // A second decision is refused.
    const again = await cmA.post(`/v1/customers/${w.customers.a.id}/registrations/${pending!.id}/refuse`, {});
    expect(again.statusCode).toBe(409);
  });

  it('emails the typed address none of the registrant’s words: no name, only the product’s text and the link', async () => {
    const words = 'Your account is locked. Visit https://evil.example/unlock now';
    for (const language of ['en', 'fr'] as const) {
      const body = person({
        claim_code: await issue(),
        firstname: words,
        lastname: 'Call +33 6 00 00 00 00',
        language,
      });
      await register(body, language);
      const [mail] = await mailsTo(body.email);
      expect(mail?.kind).toBe('registration_confirm');
      for (const text of [mail!.subject, mail!.text]) {
        expect(text).not.toContain('evil.example');
        expect(text).not.toContain('locked');
        expect(text).not.toContain('+33');
      }
      expect(mail!.text).toMatch(language === 'fr' ? /^Bonjour,\n/ : /^Hello,\n/);
      expect(mail!.text).toContain('/register/confirm?token=');
    }
  });

  it('lets whoever opens the link choose the password: the registrant’s never opens the account', async () => {
    // A stranger types someone's address with an auto-approving code, and a password of its own.
    const body = person({ claim_code: await issue({ auto_approve: true }), password: 'strangers-pass-1' });
    await register(body);
    await t.services.auth.settled();
    const [row] = await t.db.select().from(registrations).where(eq(registrations.email, body.email));
    expect(row!.passwordHash).toBe('');
    const token = await confirmLink(body.email);
    // The link alone confirms nothing: the page asks its opener for a password.
    const bare = await anonymous('fr').post('/v1/users/register/confirm', { token });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().details).toEqual([{ path: 'password', message: 'Ce champ est requis' }]);
    const confirmed = await anonymous().post('/v1/users/register/confirm', {
      token,
      password: 'owners-own-pass-2',
    });
    expect(confirmed.json()).toMatchObject({ status: 'approved' });
    const signIn = (password: string) => anonymous().post('/v1/users/token', { email: body.email, password });
    expect((await signIn('strangers-pass-1')).statusCode).toBe(401);
    expect((await signIn('owners-own-pass-2')).statusCode).toBe(200);
    const approved = (await mailsTo(body.email)).find((m) => m.kind === 'registration_approved');
    expect(approved!.text).not.toContain(body.firstname);
  });

  it('never lists unconfirmed registrations to managers: the status filter refuses them', async () => {
    const body = person({ claim_code: await issue() });
    await register(body);
    await t.services.auth.settled();
    const refused = await cmA.get(`/v1/customers/${w.customers.a.id}/registrations/list?status=unconfirmed`);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().details).toEqual([{ path: 'status', message: 'Please select an option' }]);
    const all = (await cmA.get(`/v1/customers/${w.customers.a.id}/registrations/list`)).json();
    expect(all.items.map((r: { email: string }) => r.email)).not.toContain(body.email);
  });

  it('answers a wrong code exactly as a right one, and records and sends nothing', async () => {
    const good = person({ claim_code: await issue() });
    const bad = person({ claim_code: 'ZZZZ-ZZZZ-ZZZZ' });
    const a = await register(good, 'fr');
    const b = await register(bad, 'fr');
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(b.body).toBe(a.body);
    expect(await mailsTo(bad.email)).toEqual([]);
    expect(await t.db.select().from(registrations).where(eq(registrations.email, bad.email))).toEqual([]);
  });

  it('with a serial, needs it to be a flowbox of the code’s zone, and says nothing either way', async () => {
    await t.db.insert(flowboxes).values({ serial: 'FBX-REG-1', zoneId: zone.zoneId, pairingState: 'ready' });
    const code = await issue({ max_uses: 5 });
    const right = person({ claim_code: code, flowbox_serial: 'FBX-REG-1' });
    const wrong = person({ claim_code: code, flowbox_serial: 'FBX-NOWHERE' });
    const a = await register(right);
    const b = await register(wrong);
    expect(b.body).toBe(a.body);
    expect((await mailsTo(right.email)).map((m) => m.kind)).toEqual(['registration_confirm']);
    expect(await mailsTo(wrong.email)).toEqual([]);
  });

  it('with a code that approves by itself, the confirmation opens the account', async () => {
    const body = person({ claim_code: await issue({ auto_approve: true }), language: 'fr' });
    await register(body);
    const confirmed = await anonymous('fr').post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    expect(confirmed.json()).toMatchObject({ status: 'approved' });
    expect(confirmed.json().message).toContain('Votre adresse est confirmée');
    const [user] = await t.db.select().from(users).where(eq(users.email, body.email));
    expect(user).toMatchObject({ role: ROLES.end_user, customerId: w.customers.a.id, language: 'fr' });
    expect(await t.db.select().from(userZones).where(eq(userZones.userId, user!.id))).toEqual([
      { userId: user!.id, zoneId: zone.zoneId },
    ]);
  });

  /** A site manager of site a1 who issues an auto-approving code, then the code's registration, confirmed. */
  async function autoApprovedBy(email: string, before?: (issuerId: string) => Promise<void>) {
    const issuer = await createUser(t.db, {
      email,
      role: ROLES.site_manager,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
    });
    const body = person({ claim_code: await issue({ auto_approve: true }, await loginAs(t.app, email)) });
    await register(body);
    await before?.(issuer.id);
    const confirmed = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { body, status: confirmed.json().status as string };
  }
  const denyIssuer = (permission: string) => (issuerId: string) =>
    t.db
      .update(users)
      .set({ permissions: { [permission]: 'denied' } })
      .where(eq(users.id, issuerId))
      .then(() => undefined);

  it('with a code that approves by itself, gives the defaults less what the code’s issuer lacks', async () => {
    const issuer = await siteManagerWithout(t, w, 'sm.autonoexport@test.io', 'consumption.export');
    const body = person({ claim_code: await issue({ auto_approve: true }, issuer) });
    await register(body);
    const confirmed = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    expect(confirmed.json().status).toBe('approved');
    const endUser = await anonymous().login(body.email, body.password);
    expect((await endUser.get('/v1/users/me')).json().permissions['consumption.export']).toBe('denied');
  });

  it('caps by the issuer’s permissions at registration, not at issue: one it lost since is not given', async () => {
    const { body, status } = await autoApprovedBy('sm.autoshrunk@test.io', denyIssuer('consumption.export'));
    expect(status).toBe('approved');
    const endUser = await anonymous().login(body.email, body.password);
    expect((await endUser.get('/v1/users/me')).json().permissions['consumption.export']).toBe('denied');
  });

  it('leaves the registration to the zone’s managers when the issuer was removed or may no longer issue codes', async () => {
    const removed = await autoApprovedBy('sm.autoremoved@test.io', async (issuerId) => {
      await t.db.delete(users).where(eq(users.id, issuerId));
    });
    const withoutRight = await autoApprovedBy('sm.autonoright@test.io', denyIssuer('end_users.manage'));
    const suspended = await autoApprovedBy('sm.autosuspended@test.io', async (issuerId) => {
      await t.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, issuerId));
    });
    const moved = await autoApprovedBy('sm.automoved@test.io', async (issuerId) => {
      await t.db.delete(userSites).where(eq(userSites.userId, issuerId));
    });
    for (const { body, status } of [removed, withoutRight, suspended, moved]) {
      expect(status, body.email).toBe('pending');
      expect(await t.db.select().from(users).where(eq(users.email, body.email))).toEqual([]);
      expect(await pendingOf(cmA, body.email), body.email).toMatchObject({ status: 'pending' });
    }
  });

  it('counts the uses at confirmation: a single-use code confirms one registration', async () => {
    const code = await issue({ max_uses: 1 });
    const first = person({ claim_code: code });
    const second = person({ claim_code: code });
    await register(first);
    await register(second);
    const ok = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(first.email),
      password: first.password,
    });
    expect(ok.statusCode).toBe(200);
    const late = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(second.email),
      password: second.password,
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('errors.invalid_token');
    // A link works once.
    const twice = await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(first.email),
      password: first.password,
    });
    expect(twice.statusCode).toBe(400);
  });

  it("gives the approved end user its role's defaults less what the approving manager lacks", async () => {
    const smWithoutExport = await siteManagerWithout(t, w, 'sm.noexport@test.io', 'consumption.export');
    const body = person({ claim_code: await issue() });
    await register(body);
    await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    const pending = await pendingOf(cmA, body.email);
    const approved = await smWithoutExport.post(
      `/v1/customers/${w.customers.a.id}/registrations/${pending!.id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const endUser = await anonymous().login(body.email, body.password);
    expect((await endUser.get('/v1/users/me')).json().permissions['consumption.export']).toBe('denied');
  });

  it('a refused registration is emailed and logged; an out-of-scope manager cannot decide it', async () => {
    const body = person({ claim_code: await issue() });
    await register(body);
    await anonymous().post('/v1/users/register/confirm', {
      token: await confirmLink(body.email),
      password: body.password,
    });
    const pending = await pendingOf(cmA, body.email);
    const cmB = await loginAs(t.app, 'cm.b@test.io');
    expect(
      (await cmB.post(`/v1/customers/${w.customers.a.id}/registrations/${pending!.id}/refuse`, {}))
        .statusCode,
    ).toBe(403);
    expect(
      (await cmB.post(`/v1/customers/${w.customers.b.id}/registrations/${pending!.id}/refuse`, {}))
        .statusCode,
    ).toBe(403);
    const refused = await cmA.post(
      `/v1/customers/${w.customers.a.id}/registrations/${pending!.id}/refuse`,
      {},
    );
    expect(refused.json().status).toBe('rejected');
    expect((await mailsTo(body.email)).map((m) => m.kind)).toContain('registration_refused');
    const lines = await t.db
      .select()
      .from(events)
      .where(and(eq(events.objectId, pending!.id), eq(events.actionName, 'refused')));
    expect(lines).toHaveLength(1);
  });
});

describe('managing end users and plumbers (docs/permissions.md)', () => {
  const A = () => `/v1/customers/${w.customers.a.id}`;
  const zonePath = () => codesPath().replace('/claim_codes', '');

  it('a customer manager invites an end user of a zone, who gets the set-password email', async () => {
    const res = await cmA.post(`${A()}/end_users/create`, {
      firstname: 'Ines',
      lastname: 'Invited',
      email: 'ines.invited@test.io',
      zone_id: [zone.zoneId],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ role: ROLES.end_user, zone_id: [zone.zoneId], status: 'invited' });
    expect((await mailsTo('ines.invited@test.io')).map((m) => m.kind)).toEqual(['invitation']);
    const [line] = await t.db.select().from(events).where(eq(events.objectId, res.json().id));
    expect(line).toMatchObject({ actionName: 'created', objectName: 'end_user' });
  });

  it('a site manager lists and invites only on its own sites', async () => {
    const elsewhere = await zoneForRegistrations(t.db, w.sites.a2.id);
    const refused = await smA.post(`${A()}/end_users/create`, {
      firstname: 'Otto',
      lastname: 'Elsewhere',
      email: 'otto.elsewhere@test.io',
      zone_id: [elsewhere.zoneId],
    });
    expect(refused.statusCode).toBe(403);
    await cmA.post(`${A()}/end_users/create`, {
      firstname: 'Otto',
      lastname: 'Elsewhere',
      email: 'otto.elsewhere@test.io',
      zone_id: [elsewhere.zoneId],
    });
    const listed = (await smA.get(`${A()}/end_users/list`))
      .json()
      .items.map((u: { email: string }) => u.email);
    expect(listed).not.toContain('otto.elsewhere@test.io');
    const all = (await cmA.get(`${A()}/end_users/list`)).json().items.map((u: { email: string }) => u.email);
    expect(all).toContain('otto.elsewhere@test.io');
    const plumber = await smA.post(`${A()}/plumbers/create`, {
      firstname: 'Pia',
      lastname: 'Pipes',
      email: 'pia.pipes@test.io',
      site_id: [w.sites.a1.id],
    });
    expect(plumber.statusCode, plumber.body).toBe(201);
    expect(plumber.json()).toMatchObject({ role: ROLES.plumber, site_id: [w.sites.a1.id] });
    const wrongZone = await cmA.post(`${A()}/end_users/create`, {
      firstname: 'No',
      lastname: 'Zone',
      email: 'no.zone@test.io',
      zone_id: [w.sites.b1.id],
    });
    expect(wrongZone.statusCode).toBe(400);
    expect(wrongZone.json().code).toBe('errors.invalid_zone_list');
  });

  it('grants an end user its valve permission: "Permissions have been updated" is the screen’s, the API applies it', async () => {
    const user = await createUser(t.db, {
      email: 'grant.me@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zone.zoneId],
    });
    const endUser = await loginAs(t.app, 'grant.me@test.io');
    expect((await endUser.put(`${zonePath()}/update`, { leak_detection_mode: true })).statusCode).toBe(403);
    // The role ceiling: what an end user may never do is refused, not stored.
    const aboveRole = await cmA.put(`${A()}/end_users/${user.id}/update`, {
      permissions: { 'valves.control': 'authorised', 'firmware.update': 'authorised' },
    });
    expect(aboveRole.statusCode).toBe(400);
    const granted = await cmA.put(`${A()}/end_users/${user.id}/update`, {
      permissions: { 'valves.control': 'authorised', 'firmware.update': 'denied' },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json().user.permissions).toMatchObject({
      'valves.control': 'authorised',
      'firmware.update': 'denied',
    });
    expect((await endUser.put(`${zonePath()}/update`, { leak_detection_mode: true })).statusCode).toBe(200);
    // Only the mode: nothing else of the zone.
    expect((await endUser.put(`${zonePath()}/update`, { name: 'Mine' })).statusCode).toBe(403);
  });

  it('suspends an end user: its session ends and it cannot sign in until reinstated', async () => {
    const user = await createUser(t.db, {
      email: 'suspend.me@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zone.zoneId],
    });
    const endUser = await loginAs(t.app, 'suspend.me@test.io');
    const suspended = await cmA.put(`${A()}/end_users/${user.id}/update`, { suspended: true });
    expect(suspended.json().user.status).toBe('suspended');
    expect((await endUser.get('/v1/users/me')).statusCode).toBe(401);
    await expect(loginAs(t.app, 'suspend.me@test.io')).rejects.toThrow();
    await cmA.put(`${A()}/end_users/${user.id}/update`, { suspended: false });
    expect((await (await loginAs(t.app, 'suspend.me@test.io')).get('/v1/users/me')).statusCode).toBe(200);
    const actions = (await t.db.select().from(events).where(eq(events.objectId, user.id))).map(
      (e) => e.actionName,
    );
    expect(actions).toEqual(expect.arrayContaining(['suspended', 'reinstated']));
  });

  it('an end user edits its own profile, never its zones or its suspension', async () => {
    const user = await createUser(t.db, {
      email: 'self.edit@test.io',
      role: ROLES.end_user,
      customerId: w.customers.a.id,
      zoneIds: [zone.zoneId],
    });
    const endUser = await loginAs(t.app, 'self.edit@test.io');
    expect((await endUser.put(`${A()}/end_users/${user.id}/update`, { language: 'fr' })).statusCode).toBe(
      200,
    );
    expect(
      (await endUser.put(`${A()}/end_users/${user.id}/update`, { zone_id: [other.zoneId] })).statusCode,
    ).toBe(403);
    expect((await endUser.get(`${A()}/end_users/list`)).statusCode).toBe(403);
  });

  it('removes a plumber of its site', async () => {
    const user = await createUser(t.db, {
      email: 'remove.me@test.io',
      role: ROLES.plumber,
      customerId: w.customers.a.id,
      siteIds: [w.sites.a1.id],
      firstname: 'Remy',
      lastname: 'Removed',
    });
    const res = await smA.delete(`${A()}/plumbers/${user.id}/delete`, { confirm_name: 'Remy Removed' });
    expect(res.statusCode).toBe(204);
  });
});
