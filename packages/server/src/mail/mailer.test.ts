import { ROLES } from '@flowbox/shared';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { emails } from '../db/schema.ts';
import { createUser, loginAs, openTestDatabase, TestClock, testConfig } from '../test/harness.ts';
import { EMAIL_DELIVERY, Mailer, retryDelayMs } from './mailer.ts';
import { startTestSmtp, type TestSmtp } from './smtp.testing.ts';

const silent = { warn: () => undefined };
let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const thing of open.splice(0).reverse()) await thing.close();
  await database.db.delete(emails);
});

async function relay(answer?: (message: number) => string, delayMs = 0): Promise<TestSmtp> {
  const smtp = await startTestSmtp({ answer, delayMs });
  open.push(smtp);
  return smtp;
}

function mailer(smtp: TestSmtp | undefined, clock = new TestClock()): Mailer {
  const m = new Mailer(database.db, {
    smtpUrl: smtp?.url,
    from: 'test@flowbox.test',
    log: silent,
    now: clock.now,
  });
  open.push(m);
  return m;
}

const message = (to: string) => ({ to, subject: 'Hello', text: 'Body', kind: 'invitation' });
const rows = () => database.db.select().from(emails).orderBy(emails.to);

describe('emails are a queue in the database', () => {
  it('stores emails without a relay: the outbox is where they are read', async () => {
    const m = mailer(undefined);
    await m.send(message('a@test.io'));
    await m.idle();
    expect(await rows()).toMatchObject([{ status: 'stored', attempts: 0, nextAttemptAt: null }]);
    expect(await m.deliverDue()).toBe(0);
  });

  it('answers once the email is queued, without waiting for the relay, then sends it', async () => {
    const smtp = await relay(undefined, 1_500);
    const m = mailer(smtp);
    const started = performance.now();
    await m.send(message('a@test.io'));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await rows())[0]?.status).toMatch(/^(queued|sending)$/);
    await m.idle();
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 1, error: null }]);
    expect(smtp.accepted()).toBe(1);
  });

  it('retries a refusal for now with growing waits, and sends it once the relay takes it', async () => {
    const smtp = await relay((n) => (n < 2 ? '451 try again later' : '250 accepted'));
    const clock = new TestClock();
    const m = mailer(smtp, clock);
    await m.send(message('a@test.io'));
    await m.idle();
    const [first] = await rows();
    expect(first).toMatchObject({ status: 'queued', attempts: 1 });
    expect(first?.error).toMatch(/451/);
    expect(first!.nextAttemptAt!.getTime() - clock.now().getTime()).toBeGreaterThan(retryDelayMs(1) - 1_000);
    expect(await m.deliverDue()).toBe(0); // not due yet
    clock.advance(retryDelayMs(1));
    expect(await m.deliverDue()).toBe(1);
    const [second] = await rows();
    expect(second).toMatchObject({ status: 'queued', attempts: 2 });
    expect(second!.nextAttemptAt!.getTime() - clock.now().getTime()).toBeGreaterThan(retryDelayMs(2) - 1_000);
    clock.advance(retryDelayMs(2));
    expect(await m.deliverDue()).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 3, error: null, nextAttemptAt: null }]);
    expect([smtp.received(), smtp.accepted()]).toEqual([3, 1]);
    expect(m.counters).toEqual({ queued: 1, sent: 1, retried: 2, failed: 0 });
  });

  it('fails an email the relay refuses for good at once, and one refused for now after its last try', async () => {
    const smtp = await relay((n) => (n === 0 ? '550 no such mailbox' : '451 later'));
    const clock = new TestClock();
    const m = mailer(smtp, clock);
    await m.send(message('a-refused@test.io'));
    await m.idle();
    await m.send(message('b-later@test.io'));
    await m.idle();
    for (let i = 0; i < EMAIL_DELIVERY.maxAttempts; i++) {
      clock.advance(EMAIL_DELIVERY.maxRetryMs);
      await m.deliverDue();
    }
    const [refused, later] = await rows();
    expect(refused).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: null });
    expect(refused?.error).toMatch(/550/);
    expect(later).toMatchObject({
      status: 'failed',
      attempts: EMAIL_DELIVERY.maxAttempts,
      nextAttemptAt: null,
    });
    expect(smtp.received()).toBe(1 + EMAIL_DELIVERY.maxAttempts);
    const page = await m.outbox({ limit: 10, offset: 0 });
    expect(page.items.map((e) => [e.status, e.attempts, e.next_attempt_at])).toEqual([
      ['failed', EMAIL_DELIVERY.maxAttempts, null],
      ['failed', 1, null],
    ]);
  });

  it('sends each email once when several instances deliver from one database', async () => {
    const smtp = await relay(undefined, 5);
    const instances = [mailer(smtp), mailer(smtp), mailer(smtp)];
    await instances[0]!.enqueue(
      database.db,
      Array.from({ length: 45 }, (_, i) => message(`many${i}@test.io`)),
    );
    const tried = await Promise.all(instances.map((m) => m.deliverDue()));
    expect(tried.reduce((a, b) => a + b, 0)).toBe(45);
    expect(smtp.accepted()).toBe(45);
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('takes over an email whose try was left mid-way once its lease ends, and not before', async () => {
    const smtp = await relay();
    const clock = new TestClock();
    const m = mailer(smtp, clock);
    await m.enqueue(database.db, [message('left@test.io')]);
    // An instance claimed it, then stopped before recording the relay's answer.
    await database.db.update(emails).set({
      status: 'sending',
      attempts: 1,
      nextAttemptAt: new Date(clock.now().getTime() + EMAIL_DELIVERY.leaseMs),
    });
    expect(await m.deliverDue()).toBe(0);
    clock.advance(EMAIL_DELIVERY.leaseMs + 1);
    expect(await m.deliverDue()).toBe(1);
    expect(await rows()).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('queues nothing when the transaction that asked for the email rolls back', async () => {
    const m = mailer(await relay());
    await expect(
      database.db.transaction(async (tx) => {
        await m.enqueue(tx, [message('never@test.io')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rows()).toEqual([]);
  });
});

describe('a request that sends an email only queues it', () => {
  it('answers an invitation while the relay hangs, and the email job sends it later', async () => {
    const smtp = await relay(undefined, 3_000);
    const { app, services } = await buildApp({
      config: testConfig({ smtpUrl: smtp.url }),
      db: database.db,
      logger: false,
    });
    open.push({ close: () => app.close() });
    await createUser(database.db, { email: 'asker@test.io', role: ROLES.flovea_manager });
    const started = performance.now();
    const answer = await app.inject({
      method: 'POST',
      url: '/v1/users/request_reset_password',
      payload: { email: 'asker@test.io' },
    });
    expect(answer.statusCode).toBe(202);
    expect(performance.now() - started).toBeLessThan(1_500);
    await services.auth.settled();
    await services.context.mailer.idle();
    const [sent] = await database.db.select().from(emails).where(eq(emails.to, 'asker@test.io'));
    expect(sent).toMatchObject({ status: 'sent', kind: 'reset_password', attempts: 1 });
    expect(smtp.accepted()).toBe(1);
  });
});

describe('the outbox’s search (GET /v1/outbox?search=)', () => {
  it('finds emails by recipient or subject, literally and ignoring case, for the provider only (issue 30)', async () => {
    const { app } = await buildApp({ config: testConfig(), db: database.db, logger: false });
    open.push({ close: () => app.close() });
    await createUser(database.db, { email: 'reader@test.io', role: ROLES.flovea_manager });
    await createUser(database.db, { email: 'nosy@test.io', role: ROLES.customer_manager });
    const m = mailer(undefined);
    await m.enqueue(database.db, [
      { to: 'alice@test.io', subject: 'Invitation', text: 'Body', kind: 'invitation' },
      { to: 'al_ice@test.io', subject: 'Invitation', text: 'alice', kind: 'invitation' },
      { to: 'bob@test.io', subject: 'Reset your password', text: 'Body', kind: 'reset_password' },
      { to: 'carol@test.io', subject: '100% done', text: 'Body', kind: 'alert' },
    ]);
    const reader = await loginAs(app, 'reader@test.io');
    const found = async (search: string) => {
      const res = await reader.get(`/v1/outbox?search=${encodeURIComponent(search)}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { items: { to: string }[]; total: number };
      expect(page.total).toBe(page.items.length);
      return page.items.map((e) => e.to).sort();
    };
    expect(await found('ALICE')).toEqual(['alice@test.io']);
    expect(await found('_')).toEqual(['al_ice@test.io']);
    expect(await found('password')).toEqual(['bob@test.io']);
    expect(await found('%')).toEqual(['carol@test.io']);
    expect(await found('  invitation ')).toEqual(['al_ice@test.io', 'alice@test.io']);
    expect(await found('nobody')).toEqual([]);
    const limited = await reader.get('/v1/outbox?search=invitation&limit=1');
    expect(limited.json()).toMatchObject({ total: 2, items: [expect.anything()] });
    expect((await reader.get(`/v1/outbox?search=${'x'.repeat(121)}`)).statusCode).toBe(400);
    const nosy = await loginAs(app, 'nosy@test.io');
    expect((await nosy.get('/v1/outbox?search=alice')).statusCode).toBe(403);
  });
});
