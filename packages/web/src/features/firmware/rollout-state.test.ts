import { describe, expect, it } from 'vitest';
import { availableActions } from './rollout-state.ts';

describe('what a rollout’s state lets a user do (docs/firmware.md "User controls")', () => {
  it('pauses a running rollout and resumes a paused one; both may be cancelled', () => {
    expect(availableActions({ state: 'running' }, false)).toEqual(['pause', 'cancel']);
    expect(availableActions({ state: 'paused' }, false)).toEqual(['resume', 'cancel']);
  });

  it('lets only a provider manager resume a halted rollout', () => {
    expect(availableActions({ state: 'halted' }, true)).toEqual(['resume', 'cancel']);
    expect(availableActions({ state: 'halted' }, false)).toEqual(['cancel']);
  });

  it('offers nothing once a rollout is over', () => {
    expect(availableActions({ state: 'completed' }, true)).toEqual([]);
    expect(availableActions({ state: 'cancelled' }, true)).toEqual([]);
  });
});
