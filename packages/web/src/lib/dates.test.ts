import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDate, readDateInput, toDateInput } from './dates.ts';

describe('a date typed in a date box (spec §3: MM/dd/yyyy in English, dd/MM/yyyy in French)', () => {
  it('reads the month first in English and the day first in French', () => {
    expect(readDateInput('02/01/2026', 'en')).toEqual({ date: '2026-02-01' });
    expect(readDateInput('02/01/2026', 'fr')).toEqual({ date: '2026-01-02' });
    expect(readDateInput('12/25/2026', 'en')).toEqual({ date: '2026-12-25' });
    expect(readDateInput('25/12/2026', 'fr')).toEqual({ date: '2026-12-25' });
  });

  it('takes days and months without their leading zero, other separators, and eight digits in a row', () => {
    expect(readDateInput('1/2/2026', 'fr')).toEqual({ date: '2026-02-01' });
    expect(readDateInput(' 1.2.2026 ', 'fr')).toEqual({ date: '2026-02-01' });
    expect(readDateInput('1-2-2026', 'en')).toEqual({ date: '2026-01-02' });
    expect(readDateInput('01022026', 'fr')).toEqual({ date: '2026-02-01' });
    expect(readDateInput('01022026', 'en')).toEqual({ date: '2026-01-02' });
  });

  it('reads an empty box as no date', () => {
    expect(readDateInput('', 'en')).toEqual({ date: null });
    expect(readDateInput('   ', 'fr')).toEqual({ date: null });
  });

  it('refuses a day the calendar does not have', () => {
    expect(readDateInput('31/02/2026', 'fr')).toEqual({ problem: 'date_field.no_such_day' });
    expect(readDateInput('02/31/2026', 'en')).toEqual({ problem: 'date_field.no_such_day' });
    expect(readDateInput('29/02/2026', 'fr')).toEqual({ problem: 'date_field.no_such_day' });
    expect(readDateInput('29/02/2024', 'fr')).toEqual({ date: '2024-02-29' });
    expect(readDateInput('13/01/2026', 'en')).toEqual({ problem: 'date_field.no_such_day' });
    expect(readDateInput('00/01/2026', 'fr')).toEqual({ problem: 'date_field.no_such_day' });
  });

  it('refuses text that is not written as a date', () => {
    for (const text of ['2026-02-01', '1/2/26', '01/02/2026 10:00', 'tomorrow', '1//2026', '010226'])
      expect(readDateInput(text, 'en'), text).toEqual({ problem: 'date_field.invalid_format' });
  });

  it('writes a backend date in the language display format, and nothing for none', () => {
    expect(toDateInput('2026-02-01', 'en')).toBe('02/01/2026');
    expect(toDateInput('2026-02-01', 'fr')).toBe('01/02/2026');
    expect(toDateInput('', 'en')).toBe('');
    expect(toDateInput(null, 'fr')).toBe('');
    expect(toDateInput('2026-02-31', 'fr')).toBe('');
  });

  it('reads back every day it writes, as the dates shown elsewhere', () => {
    const day = fc
      .date({
        min: new Date('1900-01-01T00:00:00Z'),
        max: new Date('2199-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, fc.constantFrom('en' as const, 'fr' as const), (date, language) => {
        const shown = toDateInput(date, language);
        expect(shown).toBe(formatDate(date, language));
        expect(readDateInput(shown, language)).toEqual({ date });
      }),
      { seed: 42 },
    );
  });
});
