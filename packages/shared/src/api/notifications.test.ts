import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateTime } from '../time/zoned.ts';
import {
  channelPlan,
  defaultNotificationPreferences,
  NotificationPreferencesSchema,
  notificationPreferencesOf,
  quietUntil,
  type NotificationPreferences,
} from './notifications.ts';

/*
 * The rules of how each person is told (docs/alerts.md "How each person is told", "Quiet hours"),
 * without a server: the channels an alert goes by, and the end of the quiet hours an instant falls in,
 * checked for any hours in zones whose clocks jump.
 */

const MINUTE = 60_000;
const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Apia',
];

function withCritical(
  push: 'now' | 'unopened' | 'off',
  email: 'now' | 'unopened' | 'off',
): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  return { ...preferences, channels: { ...preferences.channels, critical: { push, email } } };
}

describe('channelPlan', () => {
  const everywhere = () => true;
  const noPush = (channel: string) => channel === 'email';

  it('sends the channels kept at once, and keeps the others for an alert not opened', () => {
    expect(channelPlan(withCritical('now', 'unopened'), 'critical', everywhere)).toEqual({
      now: ['push'],
      unopened: ['email'],
    });
    expect(channelPlan(withCritical('now', 'now'), 'critical', everywhere)).toEqual({
      now: ['push', 'email'],
      unopened: [],
    });
    expect(channelPlan(withCritical('off', 'off'), 'critical', everywhere)).toEqual({
      now: [],
      unopened: [],
    });
  });

  it('moves the next channel up when the first cannot reach the person', () => {
    expect(channelPlan(withCritical('now', 'unopened'), 'critical', noPush)).toEqual({
      now: ['email'],
      unopened: [],
    });
    expect(channelPlan(withCritical('unopened', 'now'), 'critical', noPush)).toEqual({
      now: ['email'],
      unopened: [],
    });
  });

  it('reads the defaults for anything stored that is missing or no longer valid', () => {
    expect(notificationPreferencesOf(null)).toEqual(defaultNotificationPreferences());
    expect(notificationPreferencesOf({ channels: 'push' })).toEqual(defaultNotificationPreferences());
    expect(channelPlan(defaultNotificationPreferences(), 'other', everywhere)).toEqual({
      now: ['email'],
      unopened: [],
    });
  });

  it('never plans an alert that reaches nobody while a channel is kept for it', () => {
    const timing = fc.constantFrom('now' as const, 'unopened' as const, 'off' as const);
    fc.assert(
      fc.property(timing, timing, fc.boolean(), (push, email, reachable) => {
        const preferences = withCritical(push, email);
        if (!NotificationPreferencesSchema.safeParse(preferences).success) return;
        const plan = channelPlan(preferences, 'critical', (ch) => ch === 'email' || reachable);
        const kept = [push, email].some((t) => t !== 'off') && (reachable || email !== 'off');
        if (kept) expect(plan.now.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe('quietUntil', () => {
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
  const instant = fc.integer({ min: Date.UTC(2011, 0, 1), max: Date.UTC(2030, 0, 1) });

  it('answers, inside the hours, an instant after it within a day whose wall clock is their end', () => {
    fc.assert(
      fc.property(instant, time, time, fc.constantFrom(...ZONES), (at, start, end, zone) => {
        fc.pre(start !== end);
        const quiet = { start, end, time_zone: zone };
        const clock = localDateTime(at, zone).slice(11);
        const overnight = end <= start;
        const inside = overnight ? clock >= start || clock < end : clock >= start && clock < end;
        const until = quietUntil(new Date(at), quiet);
        if (!inside) {
          expect(until).toBeUndefined();
          return;
        }
        expect(until).toBeDefined();
        expect(until!.getTime()).toBeGreaterThan(at);
        // A day, and the longest jump of a clock (Apia skipped a whole day in 2011).
        expect(until!.getTime() - at).toBeLessThanOrEqual(49 * 60 * MINUTE);
        // At the end the hours are over…
        expect(quietUntil(until!, quiet)).toBeUndefined();
        // …and not before: the first end, not a later one (a clock jumping over the end moves it
        // by the jump, at most an hour here, as an alarm clock would ring).
        for (let k = 1; k < 6; k++) {
          const between = at + ((until!.getTime() - at) * k) / 6;
          if (until!.getTime() - between > 60 * MINUTE)
            expect(quietUntil(new Date(between), quiet)).toBeDefined();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('holds nothing without quiet hours', () => {
    expect(quietUntil(new Date(), null)).toBeUndefined();
  });

  it('ends overnight hours in the morning, in the person’s zone', () => {
    const quiet = { start: '22:00', end: '07:00', time_zone: 'Europe/Paris' };
    // 02:30 in Paris on 14 March 2027 (UTC+1): held until 07:00 Paris, 06:00 UTC.
    expect(quietUntil(new Date('2027-03-14T01:30:00Z'), quiet)?.toISOString()).toBe(
      '2027-03-14T06:00:00.000Z',
    );
    // 23:00 Paris: until the next morning.
    expect(quietUntil(new Date('2027-03-14T22:00:00Z'), quiet)?.toISOString()).toBe(
      '2027-03-15T06:00:00.000Z',
    );
    expect(quietUntil(new Date('2027-03-14T12:00:00Z'), quiet)).toBeUndefined();
  });
});
