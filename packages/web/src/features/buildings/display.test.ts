import { describe, expect, it } from 'vitest';
import { countryName, formatPrice } from './display.ts';

describe('building values shown to people', () => {
  it('formats the exact price string in the currency, up to 4 decimals, without float rounding', () => {
    expect(formatPrice('3.1416', 'EUR', 'en')).toBe('€3.1416');
    expect(formatPrice('3.1', 'EUR', 'fr')).toBe('3,10\u00a0€');
    expect(formatPrice('12345678.9999', 'USD', 'en')).toBe('$12,345,678.9999');
  });

  it('names countries in the UI language', () => {
    expect(countryName('CH', 'fr')).toBe('Suisse');
    expect(countryName('CH', 'en')).toBe('Switzerland');
  });
});
