import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  describeIssues,
  isBackendDate,
  languageFromHeader,
  LoginSchema,
  MESSAGES,
  passwordField,
  RegisterSchema,
  translate,
} from './index.ts';

describe('message catalogue (spec §8)', () => {
  it('has every message in both languages', () => {
    expect(Object.keys(MESSAGES.fr).sort()).toEqual(Object.keys(MESSAGES.en).sort());
    for (const text of Object.values(MESSAGES.fr)) expect(text.trim()).not.toBe('');
  });

  it("keeps the spec's exact texts", () => {
    expect(translate('errors.forbidden', 'en')).toBe('Unauthorized resource recovery');
    expect(translate('errors.forbidden', 'fr')).toBe('Récupération de la resource non autorisée');
    expect(translate('errors.names_mismatch', 'fr')).toBe('Les deux noms ne correspondent pas');
    expect(translate('validation.min_one', 'en')).toBe('Number must be greather or equal to 1');
  });

  it('fills placeholders', () => {
    expect(translate('errors.too_many_attempts', 'en', { minutes: 3 })).toBe(
      'Too many attempts, please try again in 3 minutes',
    );
  });
});

describe('Accept-Language', () => {
  it.each([
    [undefined, 'en'],
    ['fr-FR,fr;q=0.9,en;q=0.8', 'fr'],
    ['en-GB,fr;q=0.5', 'en'],
    ['de-DE,fr;q=0.7,en;q=0.3', 'fr'],
    ['de', 'en'],
    ['en;q=0.2, fr;q=0.8', 'fr'],
  ])('%s gives %s', (header, language) => {
    expect(languageFromHeader(header)).toBe(language);
  });

  it('never throws, whatever the header', () => {
    fc.assert(fc.property(fc.string(), (header) => ['en', 'fr'].includes(languageFromHeader(header))));
  });
});

describe('password rule (spec §5: at least one number and one letter)', () => {
  it('accepts letters with a number, refuses either alone', () => {
    expect(passwordField.safeParse('abcdefg1').success).toBe(true);
    expect(passwordField.safeParse('abcdefgh').success).toBe(false);
    expect(passwordField.safeParse('12345678').success).toBe(false);
  });

  it('agrees with the rule for any string of the minimum length', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), (password) => {
        const expected = /[0-9]/.test(password) && /[A-Za-z\u00C0-\u024F]/.test(password);
        return passwordField.safeParse(password).success === expected;
      }),
    );
  });
});

describe("field issues in the user's language", () => {
  it('names the field and uses the catalogue', () => {
    const result = RegisterSchema.safeParse({ email: 'not-an-email', terms_accepted: false });
    expect(result.success).toBe(false);
    const issues = describeIssues(result.error!.issues, 'fr');
    expect(issues).toContainEqual({ path: 'firstname', message: 'Ce champ est requis' });
    expect(issues).toContainEqual({ path: 'email', message: 'Veuillez saisir une adresse email valide' });
    expect(issues).toContainEqual({
      path: 'terms_accepted',
      message: "Vous devez accepter les conditions d'utilisation",
    });
  });

  it('gives the length limit', () => {
    const result = LoginSchema.safeParse({ email: 'a@b.io', password: 'x'.repeat(201) });
    expect(describeIssues(result.error!.issues, 'en')).toEqual([
      { path: 'password', message: 'Must be at most 200 characters' },
    ]);
  });
});

describe('backend dates (spec §3: yyyy-MM-dd)', () => {
  it('accepts real calendar days only', () => {
    expect(isBackendDate('2024-02-29')).toBe(true);
    expect(isBackendDate('2025-02-29')).toBe(false);
    expect(isBackendDate('2025-2-1')).toBe(false);
    expect(isBackendDate('01/02/2025')).toBe(false);
  });

  it('accepts every date it formats itself', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (d) => isBackendDate(d.toISOString().slice(0, 10)),
      ),
    );
  });
});
