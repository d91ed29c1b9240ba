import { describe, expect, it } from 'vitest';
import { isTranslationKey } from './keys.ts';

describe('isTranslationKey', () => {
  it('knows the UI texts and the server catalogue', () => {
    expect(isTranslationKey('common.save')).toBe(true);
    expect(isTranslationKey('errors.not_found')).toBe(true);
  });

  it('tells an already translated message apart from a key', () => {
    expect(isTranslationKey('Cet email est déjà pris')).toBe(false);
  });
});
