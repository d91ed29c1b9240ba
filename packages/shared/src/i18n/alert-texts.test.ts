import { describe, expect, it } from 'vitest';
import { ALERT_CATEGORIES } from '../alerts.ts';
import { alertDetailsText, type AlertFacts, type AlertPlace } from './alert-texts.ts';

const PARIS_M3: AlertPlace = { volumeUnit: 'm3', timezone: 'Europe/Paris' };
const PARIS_L: AlertPlace = { volumeUnit: 'liter', timezone: 'Europe/Paris' };
const NEW_YORK_GAL: AlertPlace = { volumeUnit: 'gallon', timezone: 'America/New_York' };

// 23:43:43 UTC on 24 November is 00:43 on the 25th in Paris and 18:43 on the 24th in New York.
const STARTED = '2026-11-24T23:43:43.652Z';
const OPENED = '2026-11-24T23:47:50.000Z';

const alert = (category: string, details: AlertFacts['details'], cause = 'x'): AlertFacts => ({
  category,
  cause,
  details,
  opened_at: OPENED,
});

const burst = { trigger: 'volume', event_started_at: STARTED, volume_l: 10.667, flow_minutes: 4 };

describe('the sentence of an alert', () => {
  it('tells an abnormal consumption in the building’s unit, time zone and the reader’s language', () => {
    const litres = alert('abnormal_water_consumption_no_ac', {
      ...burst,
      margin_volume_l: 10,
      margin_minutes: null,
    });
    expect(alertDetailsText(litres, 'en', PARIS_L)).toBe('10.7 L in 4 min at 00:43, beyond the 10 L margin');
    expect(alertDetailsText(litres, 'fr', PARIS_L)).toBe(
      '10,7 L en 4 min à 00:43, au-delà de la marge de 10 L',
    );
    expect(alertDetailsText(litres, 'fr', PARIS_M3)).toBe(
      '0,011 m³ en 4 min à 00:43, au-delà de la marge de 0,01 m³',
    );
    // New York: the event started the day before the alert opened (local dates), so the date shows.
    expect(alertDetailsText({ ...litres, opened_at: '2026-11-25T06:00:00Z' }, 'en', NEW_YORK_GAL)).toBe(
      '2.8 gal in 4 min on 11/24/2026 at 18:43, beyond the 2.6 gal margin',
    );
  });

  it('says when a crossing was known only after its water had stopped, and that nothing was closed', () => {
    const late = alert('abnormal_water_consumption_no_ac', {
      ...burst,
      margin_volume_l: 10,
      margin_minutes: null,
      reported: 'late',
      event_ended_at: '2026-11-24T23:51:00.000Z',
    });
    expect(alertDetailsText(late, 'en', PARIS_L)).toBe(
      '10.7 L in 4 min at 00:43, beyond the 10 L margin; reported late: the flowbox’s readings arrived after the flow had stopped at 00:51, so the water was not closed',
    );
    expect(alertDetailsText(late, 'fr', PARIS_L)).toBe(
      '10,7 L en 4 min à 00:43, au-delà de la marge de 10 L ; signalé en retard : les relevés du flowbox sont arrivés après l’arrêt de l’écoulement à 00:51, l’eau n’a donc pas été fermée',
    );
  });

  it('names the duration margin, or the margin alone when the alert predates its value', () => {
    const closing = alert(
      'abnormal_water_consumption_with_ac',
      { ...burst, trigger: 'duration', margin_minutes: 30, flow_minutes: 31 },
      'automatic_closing',
    );
    expect(alertDetailsText(closing, 'en', PARIS_L)).toBe(
      '10.7 L in 31 min at 00:43, beyond the 30 min margin',
    );
    expect(alertDetailsText(alert('abnormal_water_consumption_with_ac', burst), 'fr', PARIS_M3)).toBe(
      '0,011 m³ en 4 min à 00:43, au-delà de la marge de volume',
    );
  });

  it('tells a short flow in seconds, a long one in minutes and hours, when its seconds were kept', () => {
    const text = (flow_s: number) =>
      alertDetailsText(
        alert('abnormal_water_consumption_with_ac', {
          ...burst,
          flow_minutes: Math.round(flow_s / 60),
          flow_s,
        }),
        'fr',
        PARIS_L,
      );
    expect(text(38)).toBe('10,7 L en 38 s à 00:43, au-delà de la marge de volume');
    expect(text(600)).toBe('10,7 L en 10 min à 00:43, au-delà de la marge de volume');
    expect(text(7500)).toBe('10,7 L en 2 h 5 min à 00:43, au-delà de la marge de volume');
  });

  it('never says a flow of some water was of none: under the unit’s smallest step it says “<” that step', () => {
    const drip = (volume_l: number, language: 'en' | 'fr', place: AlertPlace) =>
      alertDetailsText(
        alert(
          'leakage_detection',
          { event_started_at: STARTED, volume_l, flow_minutes: 0, flow_s: 1 },
          'leak_detection_mode',
        ),
        language,
        place,
      );
    expect(drip(0.017, 'en', PARIS_L)).toBe(
      'Water flowed while leak detection mode was on: < 0.1 L in 1 s at 00:43',
    );
    expect(drip(0.017, 'fr', PARIS_L)).toBe(
      'De l’eau a coulé alors que le mode détection de fuite était activé : < 0,1 L en 1 s à 00:43',
    );
    expect(drip(0.017, 'en', PARIS_M3)).toMatch(/: < 0\.001 m³ in 1 s/);
    expect(drip(0.3, 'en', NEW_YORK_GAL)).toMatch(/: 0\.1 gal in 1 s/);
    expect(drip(0.1, 'en', NEW_YORK_GAL)).toMatch(/: < 0\.1 gal in 1 s/);
    // What rounds to the step or above, and none at all, read as before.
    expect(drip(0.06, 'en', PARIS_L)).toMatch(/: 0\.1 L in 1 s/);
    expect(drip(0, 'en', PARIS_L)).toMatch(/: 0 L in 1 s/);
  });

  it('tells a flow seen in a single reading without a length: no “in 0 s”', () => {
    const once = (flow_s: number, language: 'en' | 'fr') =>
      alertDetailsText(
        alert(
          'leakage_detection',
          { event_started_at: STARTED, volume_l: 0.017, flow_s },
          'leak_detection_mode',
        ),
        language,
        PARIS_L,
      );
    expect(once(0, 'en')).toBe('Water flowed while leak detection mode was on: < 0.1 L at 00:43');
    expect(once(0.4, 'fr')).toBe(
      'De l’eau a coulé alors que le mode détection de fuite était activé : < 0,1 L à 00:43',
    );
    // Half a second and more reads as a length, as before.
    expect(once(0.6, 'en')).toMatch(/: < 0\.1 L in 1 s at 00:43$/);
  });

  it('tells a leak by its cause', () => {
    const details = { event_started_at: STARTED, volume_l: 3.2, flow_minutes: 62 };
    expect(alertDetailsText(alert('leakage_detection', details, 'continuous_flow'), 'en', PARIS_L)).toBe(
      'Water has kept flowing without a pause: 3.2 L in 62 min at 00:43',
    );
    expect(alertDetailsText(alert('leakage_detection', details, 'leak_detection_mode'), 'fr', PARIS_M3)).toBe(
      'De l’eau a coulé alors que le mode détection de fuite était activé : 0,003 m³ en 62 min à 00:43',
    );
  });

  it('tells continuous flow from the leak analytics: since when, the night flow and the loss a day', () => {
    // Tuesday 24 November 02:00 in Paris; the alert opened two days later.
    const details = {
      flowing_since: '2026-11-24T01:00:00.000Z',
      continuous_hours: 48,
      night_flow_lph: 24,
      loss_l_per_day: 576,
      loss_cost_per_day: 2.1024,
      currency: 'EUR',
    };
    const facts = {
      ...alert('leakage_detection', details, 'no_flow_free_hour'),
      opened_at: '2026-11-26T01:00:00Z',
    };
    expect(alertDetailsText(facts, 'en', PARIS_L)).toBe(
      'No hour without water since Tue 02:00, 0.4 L/min at night, about 580 L and €2.10 a day',
    );
    expect(alertDetailsText(facts, 'fr', PARIS_L)).toBe(
      'Aucune heure sans eau depuis mar. 02:00, 0,4 L/min la nuit, environ 580 L et 2,10\u00a0€ par jour',
    );
    // Without a price nor nights yet, and more than a week ago: the date, the volume alone.
    const bare = {
      ...alert(
        'leakage_detection',
        { ...details, night_flow_lph: null, loss_cost_per_day: null, currency: null, loss_l_per_day: 1234 },
        'no_flow_free_hour',
      ),
      opened_at: '2026-12-06T01:00:00Z',
    };
    expect(alertDetailsText(bare, 'en', PARIS_M3)).toBe(
      'No hour without water since 11/24/2026 02:00, about 1.2 m³ a day',
    );
    expect(alertDetailsText(bare, 'en', NEW_YORK_GAL)).toBe(
      'No hour without water since 11/23/2026 20:00, about 330 gal a day',
    );
  });

  it('tells each flowbox dysfunction', () => {
    expect(alertDetailsText(alert('flowbox_dysfunction', { autotest: 'failed' }), 'fr', PARIS_L)).toBe(
      'Le flowbox a échoué à son autotest',
    );
    expect(alertDetailsText(alert('flowbox_dysfunction', { command: 'valve_open' }), 'en', PARIS_L)).toBe(
      'The flowbox did not confirm opening its valve',
    );
    expect(
      alertDetailsText(
        alert('flowbox_dysfunction', { command: 'valve_close', locked_at: STARTED }),
        'en',
        PARIS_L,
      ),
    ).toBe('The flowbox did not confirm closing its valve, asked for by automatic closing at 00:43');
  });

  it('tells each internal status: reboots, humidity and a clock off', () => {
    const fr = (details: AlertFacts['details']) =>
      alertDetailsText(alert('flowbox_internal_status', details), 'fr', PARIS_L);
    expect(fr({ reboot: 'crash' })).toBe('Le flowbox a redémarré après un plantage');
    expect(fr({ reboot: 'watchdog' })).toContain('chien de garde');
    expect(fr({ humidity: 92.5, threshold: 90 })).toBe(
      'Humidité dans le flowbox à 92,5 %, au-dessus du seuil d’alerte de 90 %',
    );
    expect(fr({ clock: 'behind', skew_s: 300, bound_s: 120 })).toBe(
      'L’horloge du flowbox retarde de 5 min (plus de 2 min d’écart) : vérifiez son réglage de l’heure',
    );
    expect(
      alertDetailsText(
        alert('flowbox_internal_status', { clock: 'ahead', skew_s: 9000, bound_s: 120 }),
        'en',
        PARIS_L,
      ),
    ).toBe('The flowbox’s clock is 2 h 30 min ahead (more than 2 min off): check its time setting');
  });

  it('tells the water temperature: a reading past its level, or hot and cold mixed up', () => {
    expect(
      alertDetailsText(alert('water_temperature', { temperature: 48.2, threshold: 50 }), 'en', PARIS_L),
    ).toBe('Water at 48.2 °C, below the 50 °C alert level');
    expect(
      alertDetailsText(
        alert('water_temperature', { device_water: 'hot', zone_water: 'cold' }),
        'fr',
        PARIS_L,
      ),
    ).toBe('Le flowbox indique de l’eau chaude dans une zone d’eau froide');
  });

  it('tells a silent flowbox since when, with the date, or that it was never heard', () => {
    expect(alertDetailsText(alert('flowbox_communication', { last_seen_at: STARTED }), 'fr', PARIS_L)).toBe(
      'Aucun message du flowbox depuis le 25/11/2026 à 00:43',
    );
    expect(alertDetailsText(alert('flowbox_communication', { last_seen_at: null }), 'en', PARIS_L)).toBe(
      'The flowbox has never sent a message',
    );
  });

  it('tells maintenance mode without details', () => {
    expect(alertDetailsText(alert('maintenance', {}), 'en', PARIS_L)).toBe(
      'The zone is in maintenance mode: automatic closing will not close the water',
    );
  });

  it.each(ALERT_CATEGORIES)('says something readable for %s whatever its details', (category) => {
    for (const language of ['en', 'fr'] as const) {
      const odd = alertDetailsText(
        alert(category, { volume_l: 'lots', event_started_at: 'yesterday', skew_s: null, extra_fact: 7 }),
        language,
        PARIS_M3,
      );
      if (category !== 'maintenance') {
        // Nothing the sentence can use: the facts as they are, never "undefined" or "NaN".
        expect(odd).toContain('volume l: lots');
        expect(odd).toContain('event started at: yesterday');
      }
      expect(odd).toContain('extra fact: 7');
      expect(odd).not.toMatch(/undefined|NaN|\{\{/);
      const empty = alertDetailsText(alert(category, {}), language, PARIS_M3);
      expect(empty).not.toMatch(/undefined|NaN|\{\{/);
    }
  });

  it('keeps the facts a sentence does not use, readable, after it', () => {
    const text = alertDetailsText(
      alert('flowbox_dysfunction', { autotest: 'failed', valve_position: 'half_open', retried_at: STARTED }),
      'en',
      PARIS_L,
    );
    expect(text).toBe(
      'The flowbox failed its autotest · valve position: half open · retried at: 11/25/2026 00:43',
    );
  });

  it('survives an unknown category, an unknown time zone and an unknown unit', () => {
    expect(alertDetailsText(alert('pipe_noise', { decibels: 80.25, loud: true }), 'fr', PARIS_L)).toBe(
      'decibels: 80,25 · loud: oui',
    );
    const nowhere = { volumeUnit: 'barrel', timezone: 'Mars/Olympus' } as unknown as AlertPlace;
    const text = alertDetailsText(alert('leakage_detection', { ...burst }), 'en', nowhere);
    expect(text).not.toMatch(/undefined|NaN/);
    expect(text).toContain('volume l: 10.667');
  });
});
