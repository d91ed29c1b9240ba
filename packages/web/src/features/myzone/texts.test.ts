import { ALERT_CATEGORIES } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { myzoneFr } from '../../lib/i18n/fr/myzone.ts';
import { myzoneEn } from '../../lib/i18n/myzone.ts';

/* The person in the flat is told what to do for every kind of alert, in English and in French. */
describe('an end user’s zone home texts', () => {
  it('advise on every alert category in both languages', () => {
    for (const category of ALERT_CATEGORIES) {
      const key = `myzone.advice.${category}` as keyof typeof myzoneEn;
      expect(myzoneEn[key], `${key} (en)`).toBeTruthy();
      expect(myzoneFr[key], `${key} (fr)`).toBeTruthy();
      expect(myzoneFr[key]).not.toBe(myzoneEn[key]);
    }
  });

  it('keep the same placeholders in French', () => {
    const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(myzoneEn) as (keyof typeof myzoneEn)[])
      expect(placeholders(myzoneFr[key]), key).toEqual(placeholders(myzoneEn[key]));
  });
});
