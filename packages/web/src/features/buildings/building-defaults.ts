import type { Currency, Language, VolumeUnit, Weekday } from '@flowbox/shared';

/** The regional settings a new building starts with (the manager can change each one). */
export type BuildingDefaults = {
  /** ISO 3166-1 alpha-2, or '' when nothing says which country: better asked than guessed wrong. */
  country: string;
  timezone: string;
  currency: Currency;
  volume_unit: VolumeUnit;
  first_day_of_week: Weekday;
};

/** Where the manager is, as the browser and the app know it. */
export type ManagerPlace = {
  /** The interface language the manager chose. */
  language: Language;
  /** The browser's locale (`navigator.language`), e.g. "fr-BE", "en-US", "en". */
  locale: string;
  /** The browser's IANA time zone; "UTC" or an "Etc/…" zone when it does not say. */
  timezone: string;
};

/** The country an interface language is most used in, when the browser does not name one. */
const LANGUAGE_COUNTRY: Record<Language, string | undefined> = { fr: 'FR', en: undefined };

const EURO = [
  'AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MC', 'MT',
  'NL', 'PT', 'SI', 'SK', 'AD', 'SM', 'VA', 'ME', 'XK', 'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'BL', 'MF',
]; // prettier-ignore
const CFA_WEST = ['BJ', 'BF', 'CI', 'GW', 'ML', 'NE', 'SN', 'TG'];
const CFA_CENTRAL = ['CM', 'CF', 'CG', 'GA', 'GQ', 'TD'];

/** The currency billed in each country, among those a building may use (CURRENCIES). */
const COUNTRY_CURRENCY: Record<string, Currency> = {
  ...Object.fromEntries(EURO.map((c) => [c, 'EUR' as const])),
  ...Object.fromEntries(CFA_WEST.map((c) => [c, 'XOF' as const])),
  ...Object.fromEntries(CFA_CENTRAL.map((c) => [c, 'XAF' as const])),
  US: 'USD', PR: 'USD', GB: 'GBP', CH: 'CHF', LI: 'CHF', CA: 'CAD', AU: 'AUD', NZ: 'NZD', JP: 'JPY',
  CN: 'CNY', HK: 'HKD', SG: 'SGD', IN: 'INR', AE: 'AED', SA: 'SAR', SE: 'SEK', NO: 'NOK', DK: 'DKK',
  PL: 'PLN', CZ: 'CZK', HU: 'HUF', RO: 'RON', TR: 'TRY', ZA: 'ZAR', MA: 'MAD', TN: 'TND', DZ: 'DZD',
  BR: 'BRL', MX: 'MXN',
}; // prettier-ignore

/**
 * The time zone of countries that have one (or one where most people live), for when the browser
 * gives none: a country with several (US, CA, AU…) is not guessed.
 */
const COUNTRY_TIMEZONE: Record<string, string> = {
  FR: 'Europe/Paris', BE: 'Europe/Brussels', LU: 'Europe/Luxembourg', CH: 'Europe/Zurich',
  MC: 'Europe/Monaco', DE: 'Europe/Berlin', IT: 'Europe/Rome', NL: 'Europe/Amsterdam',
  GB: 'Europe/London', IE: 'Europe/Dublin', PL: 'Europe/Warsaw', SE: 'Europe/Stockholm',
  NO: 'Europe/Oslo', DK: 'Europe/Copenhagen', AT: 'Europe/Vienna', CZ: 'Europe/Prague',
  MA: 'Africa/Casablanca', TN: 'Africa/Tunis', DZ: 'Africa/Algiers', SN: 'Africa/Dakar',
  CI: 'Africa/Abidjan', JP: 'Asia/Tokyo', SG: 'Asia/Singapore', IN: 'Asia/Kolkata', NZ: 'Pacific/Auckland',
}; // prettier-ignore

/** Countries whose calendars start the week on Sunday, for runtimes without `Intl.Locale` week data. */
const SUNDAY_FIRST = new Set(['US', 'CA', 'MX', 'BR', 'JP', 'IN', 'IL', 'PH', 'ZA', 'SA', 'HK', 'PR']);

/** "fr-BE" → "BE"; nothing for a locale without a region ("fr"). */
export function regionOf(locale: string): string | undefined {
  try {
    const region = new Intl.Locale(locale).region;
    return region && /^[A-Z]{2}$/.test(region) ? region : undefined;
  } catch {
    return undefined;
  }
}

/** A time zone that names a place: "UTC", "GMT" and the "Etc/…" zones say the browser was not told. */
function isPlace(timezone: string): boolean {
  return timezone.includes('/') && !timezone.startsWith('Etc/');
}

/**
 * The country of a new building: the browser's region when the browser speaks the interface's
 * language (an "en-GB" browser in English: GB); otherwise the language's own country (French: FR);
 * otherwise none, to be chosen.
 */
function countryOf(place: ManagerPlace): string {
  const region = regionOf(place.locale);
  const sameLanguage = place.locale.toLowerCase().split(/[-_]/)[0] === place.language;
  return (sameLanguage ? region : undefined) ?? LANGUAGE_COUNTRY[place.language] ?? '';
}

type WeekInfo = { firstDay: number };
type LocaleWithWeek = Intl.Locale & { getWeekInfo?: () => WeekInfo; weekInfo?: WeekInfo };

/** The country's first day of the week, from the runtime's calendar data where it has them. */
function firstDayOf(country: string): Weekday {
  if (!country) return 'monday';
  try {
    const locale = new Intl.Locale(`und-${country}`) as LocaleWithWeek;
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    if (info) return info.firstDay === 7 ? 'sunday' : info.firstDay === 6 ? 'saturday' : 'monday';
  } catch {
    // An unknown region: the table below decides.
  }
  return SUNDAY_FIRST.has(country) ? 'sunday' : 'monday';
}

/**
 * Issue #15: a new building starts in the manager's country, time zone, currency, unit and
 * week, not in the United States at UTC billed in euros. The time zone is the browser's when it
 * names a place, else the country's own, else UTC; a country that is not known bills in euros by
 * cubic metres (the product's home market), and leaves the country to be chosen.
 */
export function buildingDefaults(place: ManagerPlace): BuildingDefaults {
  const country = countryOf(place);
  return {
    country,
    timezone: isPlace(place.timezone) ? place.timezone : (COUNTRY_TIMEZONE[country] ?? 'UTC'),
    currency: COUNTRY_CURRENCY[country] ?? 'EUR',
    volume_unit: country === 'US' || country === 'PR' ? 'gallon' : 'm3',
    first_day_of_week: firstDayOf(country),
  };
}
