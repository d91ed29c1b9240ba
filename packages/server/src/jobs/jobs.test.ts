import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { beatDelay, JobRunner, type JobLog } from './index.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A seeded generator in [0, 1) (mulberry32), so the jitter test draws the same beats every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let log: { error: Mock<JobLog['error']> };
let runner: JobRunner;
beforeEach(() => {
  vi.useFakeTimers();
  log = { error: vi.fn<JobLog['error']>() };
  runner = new JobRunner({ log, now: () => Date.now() });
});
afterEach(async () => {
  await vi.runOnlyPendingTimersAsync();
  await runner.stopAll();
  vi.useRealTimers();
});

describe('a job', () => {
  it('never runs two passes at once: beats that come during a slow pass are skipped and counted', async () => {
    const slow = deferred();
    let started = 0;
    const job = runner.start({
      name: 'slow',
      everyMs: 100,
      pass: async () => {
        started++;
        if (started === 1) await slow.promise;
      },
    });
    await vi.advanceTimersByTimeAsync(350);
    expect(started).toBe(1);
    expect(job.counters).toMatchObject({ passes: 0, skipped_beats: 2 });
    slow.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(job.counters).toMatchObject({ passes: 1, skipped_beats: 2, last_pass_ms: 250, max_pass_ms: 250 });
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toBe(2);
    expect(job.counters).toMatchObject({
      passes: 2,
      skipped_beats: 2,
      last_pass_ms: 0,
      max_pass_ms: 250,
      total_pass_ms: 250,
    });
  });

  it('runs its first pass at once when asked, otherwise after one period', async () => {
    const atStart = vi.fn(async () => undefined);
    const later = vi.fn(async () => undefined);
    runner.start({ name: 'at start', everyMs: 1000, passAtStart: true, pass: atStart });
    runner.start({ name: 'later', everyMs: 1000, pass: later });
    await vi.advanceTimersByTimeAsync(0);
    expect([atStart.mock.calls.length, later.mock.calls.length]).toEqual([1, 0]);
    await vi.advanceTimersByTimeAsync(1000);
    expect([atStart.mock.calls.length, later.mock.calls.length]).toEqual([2, 1]);
  });

  it('stops only once its running pass has ended, and beats no more', async () => {
    const slow = deferred();
    const pass = vi.fn(() => slow.promise);
    const job = runner.start({ name: 'slow', everyMs: 100, pass });
    await vi.advanceTimersByTimeAsync(100);
    expect(pass).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(500);
    expect(stopped).toBe(false);
    slow.resolve();
    await stopping;
    expect(job.counters.passes).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(pass).toHaveBeenCalledTimes(1);
    expect(runner.counters()).toEqual({});
  });

  it('counts a failing pass, goes on beating, and logs failures at most once a minute', async () => {
    let calls = 0;
    const job = runner.start({
      name: 'broken',
      everyMs: 1000,
      pass: async () => {
        calls++;
        throw new Error('database away');
      },
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(5);
    expect(job.counters).toMatchObject({ passes: 5, failures: 5 });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenLastCalledWith(
      expect.objectContaining({ job: 'broken', failures: 1 }),
      'broken failed',
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(job.counters).toMatchObject({ passes: 65, failures: 65 });
    expect(log.error).toHaveBeenCalledTimes(2);
    // The second line tells how many failed since the first: the first one's 60 s later, and those between.
    expect(log.error).toHaveBeenLastCalledWith(expect.objectContaining({ failures: 60 }), 'broken failed');
  });

  it('beats every period plus a jitter that stays within its bounds', async () => {
    const jittered = new JobRunner({ log, now: () => Date.now(), random: seeded(14) });
    const beats: number[] = [];
    const job = jittered.start({
      name: 'jittered',
      everyMs: 1000,
      jitterMs: 250,
      pass: async () => void beats.push(Date.now()),
    });
    const startedAt = Date.now();
    await vi.advanceTimersByTimeAsync(200 * 1250);
    await job.stop();
    const gaps = [beats[0]! - startedAt, ...beats.slice(1).map((at, i) => at - beats[i]!)];
    expect(gaps.length).toBeGreaterThanOrEqual(200);
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(1000);
      expect(gap).toBeLessThan(1250);
    }
    // The draws spread over the range rather than sitting at one end.
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(200);
  });

  it('has no jitter unless asked: the delay is the period', () => {
    expect(beatDelay({ everyMs: 1000 }, () => 0.99)).toBe(1000);
    expect(beatDelay({ everyMs: 1000, jitterMs: 100 }, () => 0)).toBe(1000);
    expect(beatDelay({ everyMs: 1000, jitterMs: 100 }, () => 0.999_999)).toBe(1099);
  });
});

describe('the job runner', () => {
  it("lists each running job's counters by name, and refuses a second job of the same name", async () => {
    runner.start({ name: 'one', everyMs: 100, pass: async () => undefined });
    runner.start({ name: 'two', everyMs: 100, pass: async () => undefined });
    expect(() => runner.start({ name: 'one', everyMs: 50, pass: async () => undefined })).toThrow(
      'job one is running already',
    );
    await vi.advanceTimersByTimeAsync(300);
    expect(runner.counters()).toEqual({
      one: { passes: 3, skipped_beats: 0, failures: 0, last_pass_ms: 0, max_pass_ms: 0, total_pass_ms: 0 },
      two: { passes: 3, skipped_beats: 0, failures: 0, last_pass_ms: 0, max_pass_ms: 0, total_pass_ms: 0 },
    });
    await runner.stopAll();
    expect(runner.counters()).toEqual({});
  });
});
