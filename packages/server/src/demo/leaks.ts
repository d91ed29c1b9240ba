import type { Clock, FaultKind, FaultSpec, SimulatedFlowbox } from '@flowbox/simulator';

type Logger = { info: (obj: object, msg: string) => void };

/** One kind of trouble the demo fleet plays in one demo zone, and for how long. */
export type LeakEpisode = { zone: string; kind: FaultKind; minutes: number };

/**
 * Issue #15: the demo's alerts and automatic-closing screens have something to show. In turn, one
 * episode at a time:
 * - a burst pipe in the washrooms, whose automatic closing (seed/demo-data.ts) closes the water and
 *   locks the zone within a reading or two;
 * - a toilet that keeps running in Flat 101, and a dripping tap in the staff kitchen: continuous
 *   flow that raises a leak alert after two hours (docs/automation.md "Leak"), no closing.
 * Each one is over when its time is up or when the valve closes (the plumber fixes it while the
 * water is off): reopening the valve does not bring it back.
 */
export const DEMO_LEAK_EPISODES: readonly LeakEpisode[] = [
  { zone: 'Ground floor washrooms', kind: 'burst_pipe', minutes: 10 },
  { zone: 'Flat 101', kind: 'running_toilet', minutes: 150 },
  { zone: 'Staff kitchen', kind: 'slow_leak', minutes: 150 },
];

/** The first episode some minutes after start (DEMO_FIRST_LEAK_S), then one every four hours. */
export const DEMO_LEAK_EVERY_MS = 4 * 3_600_000;

export type DemoLeakTimes = { startMs: number; firstAfterMs: number; everyMs?: number };

/** The k-th episode (from 0) of a fleet started at `startMs`: where, what, from when until when. */
export function demoLeakEpisode(
  k: number,
  times: DemoLeakTimes,
): LeakEpisode & { from: number; until: number } {
  const episode = DEMO_LEAK_EPISODES[k % DEMO_LEAK_EPISODES.length]!;
  const from = times.startMs + times.firstAfterMs + k * (times.everyMs ?? DEMO_LEAK_EVERY_MS);
  return { ...episode, from, until: from + episode.minutes * 60_000 };
}

/**
 * Plays the episodes on the running demo devices (`devices`: each with its zone's name), checked
 * every `checkMs` on `clock` (or by calling `check`, with a manual clock). A zone without a device
 * skips its turn, and so does an episode whose time is over before it was checked.
 */
export function playDemoLeaks(
  devices: readonly { zone: string; device: Pick<SimulatedFlowbox, 'serial' | 'setFaults'> }[],
  options: DemoLeakTimes & { clock: Clock; log: Logger; checkMs?: number },
): { check: () => void; stop: () => void } {
  let next = 0;
  const check = () => {
    for (
      let e = demoLeakEpisode(next, options);
      options.clock.now() >= e.from;
      e = demoLeakEpisode(++next, options)
    ) {
      const found = devices.find((d) => d.zone === e.zone);
      if (!found || options.clock.now() >= e.until) continue;
      const fault: FaultSpec = { kind: e.kind, from: e.from, until: e.until, endsWhenValveCloses: true };
      found.device.setFaults([fault]);
      options.log.info({ serial: found.device.serial, zone: e.zone, kind: e.kind }, 'demo leak begins');
    }
  };
  check();
  const timer = setInterval(check, options.checkMs ?? 5_000);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
