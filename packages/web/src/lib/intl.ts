/**
 * Intl formatters, made once per language and options and kept: building one costs far more than
 * using it (locale data is looked up each time), and a table or a chart formats hundreds of
 * figures a render. Keys are the arguments; the set stays small (languages × the options in code,
 * time zones of the buildings shown), and is emptied if it ever grows past MAX.
 */
const MAX = 500;
const made = new Map<string, unknown>();

function kept<T>(kind: string, language: string, options: object, make: () => T): T {
  const key = `${kind}\u0000${language}\u0000${JSON.stringify(options)}`;
  let formatter = made.get(key) as T | undefined;
  if (formatter === undefined) {
    if (made.size >= MAX) made.clear();
    formatter = make();
    made.set(key, formatter);
  }
  return formatter;
}

export function numberFormat(language: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept('number', language, options, () => new Intl.NumberFormat(language, options));
}

export function dateTimeFormat(
  language: string,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  return kept('date', language, options, () => new Intl.DateTimeFormat(language, options));
}

export function displayNames(language: string, options: Intl.DisplayNamesOptions): Intl.DisplayNames {
  return kept('names', language, options, () => new Intl.DisplayNames([language], options));
}

/**
 * The browser's first Intl formatter costs far more than any later one: its locale data starts
 * then (about 40 ms on a phone, 160 ms at Lighthouse's 4× slowdown, measured on Chromium). A
 * signed-in page formats figures as soon as its data arrives; started while the page still waits
 * for its code and data, that cost is not paid in the middle of the first render (issue 16).
 */
export function warmUpIntl(language: string): void {
  numberFormat(language).format(0);
}
