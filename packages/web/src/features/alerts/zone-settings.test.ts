import { describe, expect, it } from 'vitest';
import { choiceOf, withChoice } from './zone-settings.ts';

const Z1 = '11111111-1111-4111-8111-111111111111';
const Z2 = '22222222-2222-4222-8222-222222222222';
const GONE = '33333333-3333-4333-8333-333333333333';

describe('per-zone alert email choices', () => {
  it('reads inherit, on and off', () => {
    const settings = { [Z1]: { maintenance: { email: false }, leakage_detection: { email: true } } };
    expect(choiceOf(settings, Z1, 'maintenance')).toBe('off');
    expect(choiceOf(settings, Z1, 'leakage_detection')).toBe('on');
    expect(choiceOf(settings, Z1, 'water_temperature')).toBe('inherit');
    expect(choiceOf(settings, Z2, 'maintenance')).toBe('inherit');
  });

  it('sets a choice, and drops a zone left with none', () => {
    const on = withChoice({}, [Z1, Z2], Z1, 'maintenance', 'off');
    expect(on).toEqual({ [Z1]: { maintenance: { email: false } } });
    expect(withChoice(on, [Z1, Z2], Z1, 'maintenance', 'inherit')).toEqual({});
  });

  it('keeps the other zones, but not the zones no longer followed', () => {
    const settings = { [Z2]: { maintenance: { email: true } }, [GONE]: { maintenance: { email: false } } };
    expect(withChoice(settings, [Z1, Z2], Z1, 'flowbox_communication', 'on')).toEqual({
      [Z2]: { maintenance: { email: true } },
      [Z1]: { flowbox_communication: { email: true } },
    });
  });
});
