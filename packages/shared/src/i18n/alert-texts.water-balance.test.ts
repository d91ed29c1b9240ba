import { describe, expect, it } from 'vitest';
import { alertDetailsText, type AlertFacts } from './alert-texts.ts';

/** The unaccounted water of a building's night (docs/automation.md "Building water balance"). */
const night = (details: AlertFacts['details']): AlertFacts => ({
  category: 'leakage_detection',
  cause: 'water_balance',
  details,
  opened_at: '2026-12-05T05:12:00.000Z',
});
const facts = { night: '2026-12-05', unaccounted_l: 40, main_l: 150, share_pct: 26.7 };

describe('the sentence of a building’s unaccounted water', () => {
  it('says the night, the water no zone measured, its share and the litres threshold passed', () => {
    const alert = night({ ...facts, threshold_l: 35 });
    const paris = { volumeUnit: 'liter', timezone: 'Europe/Paris' } as const;
    expect(alertDetailsText(alert, 'en', paris)).toBe(
      'Night of 12/05/2026 (00:00–05:00): 40 L of the 150 L through the main supply reached no zone’s meter (27 %), beyond the 35 L threshold',
    );
    expect(alertDetailsText(alert, 'fr', paris)).toBe(
      'Nuit du 05/12/2026 (00:00–05:00) : 40 L des 150 L passés par l’alimentation principale n’ont atteint le compteur d’aucune zone (27 %), au-delà du seuil de 35 L',
    );
  });

  it('says a share threshold as a share, and volumes in the building’s unit', () => {
    const alert = night({ ...facts, threshold_pct: 25 });
    expect(alertDetailsText(alert, 'en', { volumeUnit: 'm3', timezone: 'Europe/Paris' })).toBe(
      'Night of 12/05/2026 (00:00–05:00): 0.04 m³ of the 0.15 m³ through the main supply reached no zone’s meter (27 %), beyond the 25 % threshold',
    );
  });

  it('falls back to its facts when one is missing, never to another leak’s sentence', () => {
    const text = alertDetailsText(night({ night: '2026-12-05' }), 'en', {
      volumeUnit: 'liter',
      timezone: 'Europe/Paris',
    });
    expect(text).toBe('night: 2026-12-05');
  });
});
