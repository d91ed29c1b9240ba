import { FLOW_GAP_S, type Automation } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { flowNow } from './flow.ts';

const at = (iso: string) => Date.parse(iso);
function automation(overrides: Partial<Automation>): Automation {
  return {
    volume_unit: 'm3',
    close_confirmed_at: null,
    event: {
      started_at: '2026-11-26T04:00:00.000Z',
      last_flow_at: '2026-11-26T04:10:00.000Z',
      volume_l: 63.47,
      flow_minutes: 10,
    },
    ...overrides,
  } as Automation;
}

describe("the card's flow line", () => {
  it('says no water runs without an event', () => {
    expect(flowNow(automation({ event: null }), at('2026-11-26T04:10:00Z'))).toEqual({ state: 'none' });
  });

  it("gives the running flow in the zone's unit, not in litres", () => {
    expect(flowNow(automation({}), at('2026-11-26T04:10:30Z'))).toEqual({
      state: 'running',
      volume: 0.06347,
      minutes: 10,
      since: '2026-11-26T04:00:00.000Z',
    });
    const gallons = flowNow(automation({ volume_unit: 'gallon' }), at('2026-11-26T04:10:30Z'));
    expect(gallons.state === 'running' && gallons.volume).toBeCloseTo(16.767, 3);
  });

  it('says the flow stopped once no flow came for the gap, and when', () => {
    const after = at('2026-11-26T04:10:00Z') + FLOW_GAP_S * 1000;
    expect(flowNow(automation({}), after - 1).state).toBe('running');
    expect(flowNow(automation({}), after)).toMatchObject({
      state: 'stopped',
      stoppedAt: '2026-11-26T04:10:00.000Z',
    });
  });

  it('says the flow stopped at once when the valve closed on it: no water runs through a closed valve', () => {
    const closed = automation({ close_confirmed_at: '2026-11-26T04:10:05.000Z' });
    expect(flowNow(closed, at('2026-11-26T04:10:06Z'))).toMatchObject({
      state: 'stopped',
      stoppedAt: '2026-11-26T04:10:00.000Z',
    });
    // The reading that measured the minute the valve closed in is dated after the closing.
    const lastReading = automation({ close_confirmed_at: '2026-11-26T04:09:20.000Z' });
    expect(flowNow(lastReading, at('2026-11-26T04:10:06Z'))).toMatchObject({
      state: 'stopped',
      stoppedAt: '2026-11-26T04:09:20.000Z',
    });
    // Flow long after the closing (a valve that does not hold) is still told as running.
    const leaking = automation({ close_confirmed_at: '2026-11-26T04:05:00.000Z' });
    expect(flowNow(leaking, at('2026-11-26T04:10:06Z')).state).toBe('running');
  });
});
