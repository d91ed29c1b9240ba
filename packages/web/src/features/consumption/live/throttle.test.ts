import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle.ts';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

// Looked up at each call, so the fake timers installed before each test are the ones used.
const timers = {
  setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
  clearTimeout: (id: number) => clearTimeout(id),
} as unknown as Pick<Window, 'setTimeout' | 'clearTimeout'>;

describe('throttle', () => {
  it('runs at once, then once at the end of the pause for any number of calls meanwhile', () => {
    const action = vi.fn();
    const throttled = throttle(action, 2000, timers);
    throttled.run();
    expect(action).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) throttled.run();
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(action).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5000);
    expect(action).toHaveBeenCalledTimes(2);
    throttled.run();
    expect(action).toHaveBeenCalledTimes(3);
  });

  it('forgets a pending run when cancelled', () => {
    const action = vi.fn();
    const throttled = throttle(action, 1000, timers);
    throttled.run();
    throttled.run();
    throttled.cancel();
    vi.advanceTimersByTime(5000);
    expect(action).toHaveBeenCalledTimes(1);
  });
});
