import { describe, expect, it } from 'vitest';
import { bucketAxisLabel, bucketTitle, formatChange, formatCost, formatVolume } from './format.ts';

// Intl separates French thousands with a narrow no-break space and puts a no-break space before "€".
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('consumption formats', () => {
  it('writes volumes with the decimal comma and spaced thousands in French, the point in English', () => {
    expect(spaces(formatVolume('1234.5', 'm³', 'fr'))).toBe('1 234,5 m³');
    expect(spaces(formatVolume('1234.5', 'm³', 'en'))).toBe('1,234.5 m³');
    expect(spaces(formatVolume('0.012', 'm³', 'en'))).toBe('0.012 m³');
    expect(spaces(formatVolume('12.400', 'm³', 'en'))).toBe('12.4 m³');
  });

  it('writes costs in the currency as each language does, and a dash when there is no price', () => {
    expect(spaces(formatCost('18.6', 'EUR', 'fr'))).toBe('18,60 €');
    expect(formatCost('18.6', 'EUR', 'en')).toBe('€18.60');
    expect(formatCost(null, 'EUR', 'en')).toBe('—');
  });

  it('always signs a change', () => {
    expect(formatChange('8', 'en')).toBe('+8%');
    expect(spaces(formatChange('-12.5', 'fr'))).toBe('-12,5 %');
  });

  it("labels hours in the building's time zone, not the browser's", () => {
    const bucket = { start: '2026-07-01T12:00:00Z', date: '2026-07-01' };
    expect(bucketAxisLabel(bucket, 'day', 'Europe/Paris', 'fr')).toBe('14 h');
    expect(bucketAxisLabel(bucket, 'day', 'America/New_York', 'en')).toBe('8 AM');
  });

  it('labels days, weeks and months by the local date the server gives', () => {
    const bucket = { start: '2026-10-31T23:00:00Z', date: '2026-11-01' };
    expect(bucketAxisLabel(bucket, 'year', 'Europe/Paris', 'en')).toBe('Nov 26');
    expect(bucketTitle(bucket, 'year', 'Europe/Paris', 'fr')).toBe('novembre 2026');
    expect(bucketTitle(bucket, 'week', 'Europe/Paris', 'en')).toBe('Sunday, November 1, 2026');
  });
});
