import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails, registrations } from '../db/schema.ts';
import { buildApp } from '../app.ts';
import { startSlowSmtp } from '../mail/smtp.testing.ts';
import { createTestApp, createUser, openTestDatabase, testConfig, type TestApp } from '../test/harness.ts';
import { claimCodeFor, zoneForRegistrations } from '../endusers/testing.ts';
import { ANONYMOUS_LIMITS, THROTTLE } from './throttle.ts';

let t: TestApp;
/** A claim code of a zone (docs/permissions.md "Registration"), so that new addresses are recorded. */
let code = '';
beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: 'taken@test.io', role: ROLES.flovea_manager, firstname: 'Tess' });
  code = await claimCodeFor(t.db, (await zoneForRegistrations(t.db)).zoneId, { maxUses: null });
});
afterAll(() => t.close());

let addressCount = 0;
/** Each call from its own client address unless one is given, so that per-address limits stay out of the way. */
function post(url: string, payload: object, ip = `10.50.${++addressCount >> 8}.${addressCount & 255}`) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: ip,
    headers: { 'accept-language': 'fr' },
  });
}

const registration = (email: string) => ({
  firstname: 'End',
  lastname: 'User',
  email,
  password: 'end-user-pass-1',
  language: 'en',
  claim_code: code,
  terms_accepted: true,
});

/** The request's answer time, in ms, with the work it left in the background finished before the next. */
async function timed(call: () => Promise<unknown>, settled: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await call();
  const elapsed = performance.now() - start;
  await settled();
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Interleaved tries, alternating which side goes first, so that the machine's load falls on both
 * sides alike; compared pair by pair (the median of each pair's difference), so that a burst of
 * another process's work, which lasts longer than a pair, cancels out instead of landing on one side
 * more often. The first tries of each side warm the code up and are not counted. Before this fix the
 * gaps were 12–55 ms (a hash on one side only; an email, and its relay, on one side only); the margin
 * is a quarter of the slower median, at least 3 ms.
 */
async function expectSameTime(
  a: (i: number) => Promise<unknown>,
  b: (i: number) => Promise<unknown>,
  settled = () => t.services.auth.settled(),
  tries = 30,
) {
  const WARM_UP = 5;
  const times: { a: number[]; b: number[] } = { a: [], b: [] };
  for (let i = 0; i < WARM_UP + tries; i++) {
    // Each side goes first every other time: the one that follows another's background work (a
    // slow relay's connection closing) must not always be the same.
    const runA = async () => times.a.push(await timed(() => a(i), settled));
    const runB = async () => times.b.push(await timed(() => b(i), settled));
    if (i % 2 === 0) await runA().then(runB);
    else await runB().then(runA);
  }
  const [ta, tb] = [times.a.slice(WARM_UP), times.b.slice(WARM_UP)];
  const [ma, mb] = [median(ta), median(tb)];
  const gap = median(ta.map((time, i) => time - tb[i]!));
  expect(
    Math.abs(gap),
    `median gap ${gap.toFixed(1)} ms between pairs (medians ${ma.toFixed(1)} ms and ${mb.toFixed(1)} ms)`,
  ).toBeLessThan(Math.max(3, Math.max(ma, mb) / 4));
}

describe('registration tells nothing about which addresses have an account', () => {
  it('answers a taken address byte for byte like a new one, and tells only the owner by email', async () => {
    const fresh = await post('/v1/users/register', registration('fresh@test.io'));
    const taken = await post('/v1/users/register', registration('taken@test.io'));
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().message).toBe(
      'Consultez votre messagerie : nous avons envoyé un lien de confirmation à cette adresse. Ouvrez-le dans les 48 heures pour confirmer votre adresse et choisir votre mot de passe : le gestionnaire de votre bâtiment ne voit votre demande qu’une fois celle-ci confirmée. Aucun e-mail d’ici quelques minutes ? Regardez dans vos courriers indésirables, puis vérifiez votre code auprès du gestionnaire de votre bâtiment.',
    );
    await t.services.auth.settled();
    expect(await t.db.select().from(registrations).where(eq(registrations.email, 'taken@test.io'))).toEqual(
      [],
    );
    const [mail] = await t.db.select().from(emails).where(eq(emails.to, 'taken@test.io'));
    expect(mail).toMatchObject({
      kind: 'registration_exists',
      subject: 'You already have a Flowbox Manager account',
    });
    expect(mail?.text).toContain('http://flowbox.test/reset-password-request');
  });

  it('answers the same new address twice alike, and keeps one pending registration', async () => {
    const first = await post('/v1/users/register', registration('twice@test.io'));
    const second = await post('/v1/users/register', registration('twice@test.io'));
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(second.body).toBe(first.body);
    await t.services.auth.settled();
    const rows = await t.db.select().from(registrations).where(eq(registrations.email, 'twice@test.io'));
    expect(rows).toHaveLength(1);
  });

  it('takes as long for a taken address as for a new one (the same work before the answer)', async () => {
    await expectSameTime(
      () => post('/v1/users/register', registration('taken@test.io')),
      (i) => post('/v1/users/register', registration(`timing${i}@test.io`)),
      // A new address's confirmation email, and a taken one's notice (three a day at most), are
      // queued after the answer: their delivery is waited for between tries too, so that neither
      // side's answer shares the machine with the other's email.
      async () => {
        await t.services.auth.settled();
        await t.services.context.mailer.idle();
      },
      // No hash before the answer any more (the password is chosen at confirmation): answers of a
      // few ms, whose medians need more tries to stand above a loaded machine's noise.
      80,
    );
  }, 180_000); // dozens of timed tries each: minutes on a loaded 2-core machine

  it('takes a limited number of registrations from one client address, whatever the email', async () => {
    const ip = '10.60.0.1';
    for (let i = 0; i < ANONYMOUS_LIMITS.registrationsPerAddress; i++)
      expect((await post('/v1/users/register', registration(`burst${i}@test.io`), ip)).statusCode).toBe(201);
    const fresh = await post('/v1/users/register', registration('burst-more@test.io'), ip);
    const taken = await post('/v1/users/register', registration('taken@test.io'), ip);
    expect(fresh.statusCode).toBe(429);
    expect(taken.body).toBe(fresh.body);
    expect(fresh.json().code).toBe('errors.too_many_attempts');
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/v1/users/register', registration('other-place@test.io'))).statusCode).toBe(201);
  });
});

describe('a reset request tells nothing about which addresses have an account', () => {
  it('takes as long for a known address as for an unknown one over 50 tries each, even with a slow mail relay', async () => {
    const smtp = await startSlowSmtp(40);
    const database = await openTestDatabase();
    const { app, services } = await buildApp({
      config: testConfig({ smtpUrl: smtp.url }),
      db: database.db,
      logger: false,
    });
    try {
      for (let i = 0; i < 50; i++)
        await createUser(database.db, { email: `known${i}@test.io`, role: ROLES.flovea_manager });
      // Each try from its own client address: one address may ask ANONYMOUS_LIMITS.resetRequestsPerAddress.
      let asked = 0;
      const ask = (email: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/users/request_reset_password',
          payload: { email },
          remoteAddress: `10.90.${++asked >> 8}.${asked & 255}`,
        });
      await expectSameTime(
        (i) => ask(`known${i}@test.io`),
        (i) => ask(`unknown${i}@test.io`),
        // The request only queues the email (mail/mailer.ts); its delivery is waited for between
        // tries, as the lookup is, so that neither side's answer shares the machine with it.
        async () => {
          await services.auth.settled();
          await services.context.mailer.idle();
        },
        50,
      );
      const sent = await database.db.select().from(emails).where(eq(emails.kind, 'reset_password'));
      expect(sent.map((m) => m.to).sort()).toEqual(
        Array.from({ length: 50 }, (_, i) => `known${i}@test.io`).sort(),
      );
      expect(sent.every((m) => m.status === 'sent')).toBe(true);
      expect(smtp.accepted()).toBe(50);
    } finally {
      await app.close();
      await database.close();
      await smtp.close();
    }
  }, 180_000); // dozens of timed tries each: minutes on a loaded 2-core machine

  it('sends a limited number of reset emails to one address, and answers every asker alike whether it has an account or not', async () => {
    await createUser(t.db, { email: 'flooded@test.io', role: ROLES.flovea_manager });
    // A stranger asks for someone's resets, more than the mailbox takes in an hour.
    const stranger = '10.70.0.1';
    for (let i = 0; i < ANONYMOUS_LIMITS.resetPerEmail + 2; i++)
      expect(
        (await post('/v1/users/request_reset_password', { email: 'flooded@test.io' }, stranger)).statusCode,
      ).toBe(202);
    // The address typed is the caller's word: it never refuses the owner (no 429 keyed by it).
    const known = await post('/v1/users/request_reset_password', { email: 'flooded@test.io' }, '10.70.0.2');
    const unknown = await post('/v1/users/request_reset_password', { email: 'nobody@test.io' }, '10.70.0.3');
    expect(known.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    await t.services.auth.settled();
    const sent = await t.db.select().from(emails).where(eq(emails.to, 'flooded@test.io'));
    // The mailbox holds working links already; it gets no more than its hour's share.
    expect(sent).toHaveLength(ANONYMOUS_LIMITS.resetPerEmail);
    t.clock.advance(THROTTLE.windowMs + 1000);
    await post('/v1/users/request_reset_password', { email: 'flooded@test.io' }, '10.70.0.2');
    await t.services.auth.settled();
    expect(await t.db.select().from(emails).where(eq(emails.to, 'flooded@test.io'))).toHaveLength(
      ANONYMOUS_LIMITS.resetPerEmail + 1,
    );
  });

  it('takes a limited number of reset requests from one client address, whatever the email', async () => {
    const ip = '10.70.1.1';
    for (let i = 0; i < ANONYMOUS_LIMITS.resetRequestsPerAddress; i++)
      expect(
        (await post('/v1/users/request_reset_password', { email: `asked${i}@test.io` }, ip)).statusCode,
      ).toBe(202);
    const more = await post('/v1/users/request_reset_password', { email: 'asked-more@test.io' }, ip);
    const taken = await post('/v1/users/request_reset_password', { email: 'taken@test.io' }, ip);
    expect(more.statusCode).toBe(429);
    expect(taken.body).toBe(more.body);
    expect(Number(more.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post('/v1/users/request_reset_password', { email: 'asked-more@test.io' })).statusCode).toBe(
      202,
    );
  });
});

describe('an address that has an account is told so only with a working code, a few times a day', () => {
  const taken = (email: string, overrides: object = {}) =>
    post('/v1/users/register', { ...registration(email), ...overrides });
  const toldTo = async (email: string) => {
    await t.services.auth.settled();
    const sent = await t.db.select().from(emails).where(eq(emails.to, email));
    return sent.filter((m) => m.kind === 'registration_exists');
  };

  it('is not emailed for a wrong claim code, and the answer is the same byte for byte', async () => {
    await createUser(t.db, { email: 'wrong.code@test.io', role: ROLES.end_user, firstname: 'Wren' });
    const fresh = await taken('fresh.wrong.code@test.io');
    const wrong = await taken('wrong.code@test.io', { claim_code: 'ABCD-EFGH-JKMN' });
    expect(wrong.statusCode).toBe(fresh.statusCode);
    expect(wrong.body).toBe(fresh.body);
    expect(await toldTo('wrong.code@test.io')).toEqual([]);
  });

  it(`is emailed at most ${ANONYMOUS_LIMITS.accountExistsPerEmailPerDay} times a day, answered alike every time`, async () => {
    await createUser(t.db, { email: 'told.often@test.io', role: ROLES.end_user, firstname: 'Otto' });
    const fresh = await taken('fresh.told.often@test.io');
    for (let i = 0; i < ANONYMOUS_LIMITS.accountExistsPerEmailPerDay + 3; i++) {
      const res = await taken('told.often@test.io');
      expect(res.statusCode).toBe(fresh.statusCode);
      expect(res.body).toBe(fresh.body);
    }
    expect(await toldTo('told.often@test.io')).toHaveLength(ANONYMOUS_LIMITS.accountExistsPerEmailPerDay);
    t.clock.advance(24 * 3_600_000 + 1000);
    await taken('told.often@test.io');
    expect(await toldTo('told.often@test.io')).toHaveLength(ANONYMOUS_LIMITS.accountExistsPerEmailPerDay + 1);
  });
});
