import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awayState, judgeAway, AwayModeInputSchema, type AwayPeriod, type AwayReading } from './away.ts';
import { STALE_READING_S } from './detection.ts';
import { alertDetailsText } from '../i18n/alert-texts.ts';

const T0 = Date.parse('2026-12-20T08:00:00Z');
const MIN = 60_000;
const period = (over: Partial<AwayPeriod> = {}): AwayPeriod => ({
  from: new Date(T0),
  until: new Date(T0 + 600 * MIN),
  closeOnFlow: true,
  closedAt: null,
  ...over,
});
const at = (minutes: number, volumeMl = 500, extra: Partial<AwayReading> = {}): AwayReading => ({
  placedAt: new Date(T0 + minutes * MIN),
  intervalS: 60,
  volumeMl,
  flowS: volumeMl > 0 ? 30 : 0,
  flowboxId: 'fb',
  ...extra,
});

describe('away mode rule (docs/automation.md "Away mode")', () => {
  it('says nothing without a period, or without water inside it', () => {
    expect(judgeAway(null, [at(5)], new Date(T0 + 5 * MIN))).toBeNull();
    expect(judgeAway(period(), [at(5, 0), at(6, 0)], new Date(T0 + 6 * MIN))).toBeNull();
    // Before it starts and after it ends.
    expect(judgeAway(period(), [at(-1), at(0)], new Date(T0))).toBeNull();
    expect(judgeAway(period(), [at(601)], new Date(T0 + 601 * MIN))).toBeNull();
  });

  it('alerts on any water inside the period and closes a fresh flow while away', () => {
    const verdict = judgeAway(period(), [at(4, 0), at(5, 300), at(6, 200)], new Date(T0 + 6 * MIN + 1000));
    expect(verdict).toMatchObject({ volumeMl: 500, flowS: 60, close: true });
    expect(verdict!.first.placedAt.getTime()).toBe(T0 + 5 * MIN);
  });

  it('does not close when the resident did not ask, or once it closed this period', () => {
    const now = new Date(T0 + 5 * MIN);
    expect(judgeAway(period({ closeOnFlow: false }), [at(5)], now)).toMatchObject({ close: false });
    expect(judgeAway(period({ closedAt: new Date(T0) }), [at(5)], now)).toMatchObject({ close: false });
  });

  it('tells of water a late reading measured while away, after the period ended, without closing', () => {
    // Buffered while the device was offline, delivered the day after the return.
    const verdict = judgeAway(period(), [at(300)], new Date(T0 + 2000 * MIN));
    expect(verdict).toMatchObject({ volumeMl: 500, close: false });
  });

  it('does not close on a stale or replayed reading while away: the flow may have stopped', () => {
    const now = new Date(T0 + 100 * MIN);
    expect(judgeAway(period(), [at(100 - STALE_READING_S / 60 - 1)], now)).toMatchObject({ close: false });
    expect(judgeAway(period(), [at(100, 500, { live: false })], now)).toMatchObject({ close: false });
    expect(judgeAway(period(), [at(100 - STALE_READING_S / 60)], now)).toMatchObject({ close: true });
  });

  it('judges readings on their own time whatever their order (property)', () => {
    const reading = fc.record({
      minute: fc.integer({ min: -100, max: 800 }),
      volumeMl: fc.integer({ min: 0, max: 2000 }),
    });
    fc.assert(
      fc.property(
        fc.array(reading, { maxLength: 20 }),
        fc.integer({ min: -50, max: 900 }),
        (list, nowMin) => {
          const readings = list.map((r) => at(r.minute, r.volumeMl));
          const now = new Date(T0 + nowMin * MIN);
          const forward = judgeAway(period(), readings, now);
          const backward = judgeAway(period(), [...readings].reverse(), now);
          const inside = list.filter((r) => r.volumeMl > 0 && r.minute > 0 && r.minute <= 600);
          expect(forward === null).toBe(inside.length === 0);
          expect(backward?.volumeMl).toBe(forward?.volumeMl);
          expect(backward?.close).toBe(forward?.close);
          expect(backward?.first.placedAt.getTime()).toBe(forward?.first.placedAt.getTime());
          if (forward) {
            expect(forward.volumeMl).toBe(inside.reduce((s, r) => s + r.volumeMl, 0));
            // It never closes once the period is over, nor before it started.
            if (nowMin >= 600 || nowMin < 0) expect(forward.close).toBe(false);
          }
        },
      ),
    );
  });

  it('states the period as scheduled, under way or ended', () => {
    expect(awayState(null, new Date(T0))).toBe('off');
    expect(awayState(period(), new Date(T0 - 1))).toBe('scheduled');
    expect(awayState(period(), new Date(T0))).toBe('away');
    expect(awayState(period(), new Date(T0 + 600 * MIN))).toBe('ended');
  });

  it('takes local dates and times that end after they start', () => {
    const body = {
      from_date: '2026-12-20',
      from_time: '08:00',
      until_date: '2026-12-20',
      until_time: '08:00',
    };
    const parsed = AwayModeInputSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      message: 'validation.end_after_start',
      path: ['until_date'],
    });
    expect(AwayModeInputSchema.parse({ ...body, until_time: '08:01' }).close_on_flow).toBe(false);
    expect(AwayModeInputSchema.safeParse({ ...body, from_time: '8h' }).error?.issues[0]?.message).toBe(
      'validation.time',
    );
  });

  it('tells the away alert in the reader’s language, the building’s unit and time', () => {
    const alert = {
      category: 'leakage_detection',
      cause: 'away_flow',
      opened_at: '2026-12-20T13:02:00Z',
      details: {
        event_started_at: '2026-12-20T13:01:00Z',
        volume_l: 0.5,
        flow_minutes: 1,
        flow_s: 60,
        away_until: '2027-01-03T17:00:00Z',
        closed: true,
      },
    };
    const place = { volumeUnit: 'liter' as const, timezone: 'Europe/Paris' };
    expect(alertDetailsText(alert, 'en', place)).toBe(
      'Water flowed while away mode was on (until 01/03/2027 18:00): 0.5 L in 60 s at 14:01; the water was closed',
    );
    expect(alertDetailsText({ ...alert, details: { ...alert.details, closed: false } }, 'fr', place)).toBe(
      'De l’eau a coulé pendant le mode absence (jusqu’au 03/01/2027 18:00) : 0,5 L en 60 s à 14:01',
    );
  });
});
