/**
 * Time as the simulator sees it. Consumption follows the simulated "true" time of a clock; a device
 * stamps its messages with that time plus its own skew. Tests use a ManualClock and never sleep.
 */
export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to: deterministic tests and simulated days in milliseconds. */
export class ManualClock implements Clock {
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  set(ms: number): void {
    this.current = ms;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * Simulated time running `speed` times faster than `base` from `startMs` on: a speed of 60 plays a
 * simulated hour each real minute (the CLI's speed-up factor).
 */
export function scaledClock(speed: number, startMs: number, base: Clock = systemClock): Clock {
  const realStart = base.now();
  return { now: () => startMs + (base.now() - realStart) * speed };
}
