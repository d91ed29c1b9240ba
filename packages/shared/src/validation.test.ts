import { describe, expect, it } from 'vitest';
import { typedNameMatches } from './validation.ts';

describe('a typed name (spec §5: delete, exit automatic closing)', () => {
  it('matches whatever its case and spaces', () => {
    expect(typedNameMatches('zone  2 ', 'Zone 2')).toBe(true);
    expect(typedNameMatches('ÉTAGE 1', 'étage 1')).toBe(true);
    expect(typedNameMatches('Cafe\u0301', 'Café')).toBe(true);
  });

  it('never another name, another accent, or nothing', () => {
    expect(typedNameMatches('Zone 3', 'Zone 2')).toBe(false);
    expect(typedNameMatches('Etage 1', 'Étage 1')).toBe(false);
    expect(typedNameMatches('', 'Zone 2')).toBe(false);
    expect(typedNameMatches('Zone2', 'Zone 2')).toBe(false);
  });
});
