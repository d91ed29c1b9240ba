import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { operationsOf, requestsFor, type FuzzRequest } from './fuzz/requests.ts';
import { createFuzzWorld, keepSignedIn, ROLES, type FuzzWorld, type Role } from './fuzz/world.ts';

/*
 * The fuzz step (docs/fuzz.md): every route of docs/openapi.json, called as each role with values
 * generated from its parameters' and body's schemas and their edges. Whatever is sent, no answer is
 * a 5xx, none takes a second, and the server still answers /v1/health after each route.
 * Seeded: FUZZ_SEED=<n> replays a run, FUZZ_SEED=random explores a new one.
 */

const DEFAULT_SEED = 20_2026;
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? DEFAULT_SEED);
/** Calls per route and role: about 15,000 in all, a minute or two per database on two cores. */
const CASES: Record<Role, number> = { provider: 48, customerManager: 36, siteManager: 36, anonymous: 12 };
/** FUZZ_SCALE=<n> multiplies the calls, for a longer search than the test step's. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const ANSWER_WITHIN_MS = 1_000;
/**
 * An answer's time also grows with what it carries: a CSV export of four years of days is 1.5 MB,
 * 0.6 s on a quiet machine and 1.3 s on a busy one. Work that grows with what is stored, or loops,
 * answers little and slowly, and still meets the 1 s bound.
 */
const ANSWER_MS_PER_MB = 2_000;
const allowedMs = (bytes: number) => ANSWER_WITHIN_MS + (ANSWER_MS_PER_MB * bytes) / 1_000_000;

const openapi = JSON.parse(readFileSync(new URL('../../../../docs/openapi.json', import.meta.url), 'utf8'));
const operations = operationsOf(openapi);

let t: TestApp;
let world: FuzzWorld;

beforeAll(async () => {
  console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
  // Thousands of calls from one address, and a run longer than the 15-minute token life on a busy machine.
  t = await createTestApp({ rateLimitPerMinute: 1_000_000, accessTokenTtl: 86_400 });
  world = await createFuzzWorld(t);
});
afterAll(async () => {
  // How deep the calls went: mostly 4xx means the generators rarely get past validation.
  console.log(
    `fuzz answers by status (seed ${SEED}): ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
  );
  console.log(`slowest answers:\n${slowest.map((s) => `  ${s.ms} ms ${s.call}`).join('\n')}`);
  await t?.close();
});

const statuses = new Map<number, number>();
/** The slowest calls of the run, to see a route drifting towards the bound before it fails. */
let slowest: { ms: number; call: string }[] = [];

describe(`every route, fuzzed (seed ${SEED})`, () => {
  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))('%s', async (name, op) => {
    const failures: string[] = [];
    for (const role of ROLES) {
      const requests = fc.sample(requestsFor(op, role, world), {
        seed: seedOf(`${SEED} ${name} ${role}`),
        numRuns: Math.max(1, Math.round(CASES[role] * SCALE)),
      });
      for (const request of requests) {
        const failure = await call(request);
        if (failure) failures.push(`${role}: ${failure}`);
      }
      await keepSignedIn(t, world, role);
    }
    const health = await t.app.inject({ method: 'GET', url: '/v1/health' });
    expect(health.statusCode, 'GET /v1/health after the route').toBe(200);
    expect(failures).toEqual([]);
  });
});

/** The call, and what was wrong with its answer (a 5xx, a slow one), if anything. */
async function call(request: FuzzRequest): Promise<string | undefined> {
  const started = performance.now();
  const res = await t.app.inject(request);
  const ms = Math.round(performance.now() - started);
  statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
  slowest = [...slowest, { ms, call: `${request.method} ${clip(request.url)} → ${res.statusCode}` }]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  if (res.statusCode < 500 && ms < allowedMs(res.rawPayload.length)) return undefined;
  return `${request.method} ${clip(request.url)} body ${clip(String(request.payload ?? ''))} → ${res.statusCode} in ${ms} ms: ${clip(res.body)}`;
}

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

/** A 31-bit seed for one route and role, from the run's seed (FNV-1a), so each replays alone. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) & 0x7fffffff;
}
