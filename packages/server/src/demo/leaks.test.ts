import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Flowbox } from '@flowbox/shared';
import { ManualClock, type FaultSpec } from '@flowbox/simulator';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { until } from '../flowboxes/testing.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../seed/index.ts';
import { startServer, type RunningServer } from '../server.ts';
import { freePort } from '../test/harness.ts';
import { DEMO_LEAK_EVERY_MS, demoLeakEpisode, playDemoLeaks } from './leaks.ts';

/*
 * Issue #15: the demo fleet has a leak now and then, so the alerts and automatic closing have
 * something to show; each episode ends when the valve closes.
 */

const MINUTE = 60_000;
const START = Date.parse('2026-11-26T08:00:00Z');
const silent = { info: () => undefined, warn: () => undefined };

describe('the demo leak episodes', () => {
  it('come one at a time, every four hours, in turn in the washrooms, Flat 101 and the kitchen', () => {
    const times = { startMs: START, firstAfterMs: 10 * MINUTE };
    const episodes = [0, 1, 2, 3].map((k) => demoLeakEpisode(k, times));
    expect(episodes.map((e) => [e.zone, e.kind, e.from - START])).toEqual([
      ['Ground floor washrooms', 'burst_pipe', 10 * MINUTE],
      ['Flat 101', 'running_toilet', 10 * MINUTE + DEMO_LEAK_EVERY_MS],
      ['Staff kitchen', 'slow_leak', 10 * MINUTE + 2 * DEMO_LEAK_EVERY_MS],
      ['Ground floor washrooms', 'burst_pipe', 10 * MINUTE + 3 * DEMO_LEAK_EVERY_MS],
    ]);
    // Never two at once: each is over before the next begins.
    for (const [i, e] of episodes.entries())
      if (i > 0) expect(e.from).toBeGreaterThan(episodes[i - 1]!.until);
  });

  it('begin on the zone’s flowbox when their time comes, each to end when the valve closes', () => {
    const clock = new ManualClock(START);
    const given: { serial: string; faults: readonly FaultSpec[] }[] = [];
    const device = (serial: string) => ({
      serial,
      setFaults: (faults: readonly FaultSpec[]) => given.push({ serial, faults }),
    });
    const leaks = playDemoLeaks(
      [
        { zone: 'Ground floor washrooms', device: device('DEMO-W') },
        { zone: 'Flat 101', device: device('DEMO-F') },
      ],
      { startMs: START, firstAfterMs: 10 * MINUTE, clock, log: silent, checkMs: 3_600_000 },
    );
    try {
      expect(given).toEqual([]);
      clock.advance(10 * MINUTE);
      leaks.check();
      expect(given).toEqual([
        {
          serial: 'DEMO-W',
          faults: [
            {
              kind: 'burst_pipe',
              from: START + 10 * MINUTE,
              until: START + 20 * MINUTE,
              endsWhenValveCloses: true,
            },
          ],
        },
      ]);
      leaks.check();
      expect(given).toHaveLength(1);
      clock.advance(DEMO_LEAK_EVERY_MS);
      leaks.check();
      expect(given.map((g) => [g.serial, g.faults[0]!.kind])).toEqual([
        ['DEMO-W', 'burst_pipe'],
        ['DEMO-F', 'running_toilet'],
      ]);
      // The kitchen has no flowbox here: its turn passes.
      clock.advance(2 * DEMO_LEAK_EVERY_MS);
      leaks.check();
      expect(given.map((g) => g.serial)).toEqual(['DEMO-W', 'DEMO-F', 'DEMO-W']);
      // Flat 101's next one (2 h 30 long) checked only 3 hours after it began: skipped.
      clock.advance(DEMO_LEAK_EVERY_MS + 3 * 60 * MINUTE);
      leaks.check();
      expect(given).toHaveLength(3);
    } finally {
      leaks.stop();
    }
  });
});

describe('the demo fleet’s first leak (DEMO_FIRST_LEAK_S=0)', () => {
  const dirs: string[] = [];
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('bursts a pipe in the washrooms, whose automatic closing closes the valve and locks the zone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fbx-leak-'));
    dirs.push(dataDir);
    server = await startServer(
      loadConfig({
        DATA_DIR: dataDir,
        // Polled every 20 ms: faster than the production rate limit, which counts every request.
        RATE_LIMIT_PER_MINUTE: '1000000',
        PORT: String(await freePort()),
        MQTT_PORT: String(await freePort()),
        LOG_LEVEL: 'silent',
        DEMO_HISTORY: 'false',
        DEMO_FIRST_LEAK_S: '0',
      }),
    );
    const login = await fetch(`${server.url}/v1/users/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_ACCOUNTS[1].email, password: DEMO_PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const get = async <T>(path: string): Promise<T> => {
      const answer = await fetch(`${server!.url}/v1${path}`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as T;
    };
    const me = await get<{ customer_id: string }>('/users/me');
    const customer = `/customers/${me.customer_id}`;
    let washrooms = '';
    for (const site of (await get<{ items: { id: string }[] }>(`${customer}/sites/list`)).items)
      for (const b of (await get<{ items: { id: string }[] }>(`${customer}/sites/${site.id}/buildings/list`))
        .items) {
        const zonesPath = `${customer}/sites/${site.id}/buildings/${b.id}/zones`;
        const zone = (await get<{ items: { id: string; name: string }[] }>(`${zonesPath}/list`)).items.find(
          (z) => z.name === 'Ground floor washrooms',
        );
        if (zone) washrooms = `${zonesPath}/${zone.id}`;
      }
    expect(washrooms).not.toBe('');

    // The first minute's reading (about 64 L) is past the 60 L margin: closed and locked.
    const automation = await until(async () => {
      const info = await get<{ locked: boolean; locked_by: string | null }>(`${washrooms}/automation/info`);
      return info.locked ? info : false;
    }, 150_000);
    expect(automation.locked_by).toBe('volume');
    const flowbox = await until(async () => {
      const [box] = (await get<{ items: Flowbox[] }>(`${washrooms}/flowboxes/list`)).items;
      return box?.valve === 'closed' ? box : false;
    }, 60_000);
    expect(flowbox.valve).toBe('closed');
    const alerts = await get<{ items: { category: string; zone_id?: string }[] }>(
      `/alerts/list?customer_id=${me.customer_id}`,
    );
    expect(alerts.items.length).toBeGreaterThan(0);
  }, 240_000);
});
