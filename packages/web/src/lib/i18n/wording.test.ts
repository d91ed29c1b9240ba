import { MESSAGES_EN, MESSAGES_FR } from '@flowbox/shared';
import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { featuresEn } from './features.ts';
import { featuresFr } from './features-fr.ts';
import { fr } from './fr.ts';

const english = { ...MESSAGES_EN, ...en, ...featuresEn } as Record<string, string>;
const french = { ...MESSAGES_FR, ...fr, ...featuresFr } as Record<string, string>;
const matching = (texts: Record<string, string>, pattern: RegExp) =>
  Object.entries(texts)
    .filter(([, text]) => pattern.test(text))
    .map(([key, text]) => `${key}: ${text}`);

/* Issue 30 item 18: the small texts a reader trips on, in the whole catalogue, not one screen. */
describe('the wording of the catalogues', () => {
  it('counts with plurals, never “site(s)”', () => {
    expect(matching(english, /\w\(s\)/)).toEqual([]);
    expect(matching(french, /\w\(s\)/)).toEqual([]);
  });

  it('says “un flowbox” in French, as everywhere, never “une flowbox”', () => {
    expect(matching(french, /\b(une|aucune) flowbox|flowbox appairée/i)).toEqual([]);
  });

  it('names the firmware one way in French, as its screens do', () => {
    expect(matching(french, /micrologiciel/i)).toEqual([]);
  });

  it('puts a date and time after “le”, not “à”, in French', () => {
    expect(matching(french, /\bà \{\{(time|stopped|date)\}\}/)).toEqual([]);
  });

  it('writes a label and its value with French punctuation', () => {
    expect(french['common.labelled']).toBe('{{label}} : {{value}}');
    expect(english['common.labelled']).toBe('{{label}}: {{value}}');
  });
});
