/**
 * The part of i18next the web app uses, in the browser build instead of i18next itself (vite.config.ts
 * aliases 'i18next' and 'react-i18next' to this module and lite-react.ts): i18next is 15 KB of the
 * 150 KB gzipped that /login may load (issue 16), for features the app does not use (backends,
 * namespaces, nesting, formatters, context, ordinals). Types still come from i18next.
 *
 * What it does, as i18next 26 does it with index.ts's options (flat keys, no escaping, English as
 * the fallback): a key is looked up in the language, then in the fallback; with a numeric `count`,
 * `key_zero` (count 0), then `key_<plural category>` (Intl.PluralRules), then `key`; an unknown key
 * answers `defaultValue` or the key itself. `{{name}}` and `{{- name}}` take the option of that name;
 * an option absent leaves the placeholder, an option present but undefined empties it.
 * lite.test.ts holds it to i18next's own answers over the whole catalogue, EN and FR.
 */

type Texts = Record<string, string>;
type Listener = (...args: unknown[]) => void;
export type LiteOptions = { count?: unknown; defaultValue?: string; lng?: string } & Record<string, unknown>;
export type LiteInitOptions = {
  resources?: Record<string, { translation: Texts }>;
  lng: string;
  fallbackLng: string;
};

const PLACEHOLDER = /\{\{(-?)(.+?)\}\}/g;

export class I18nLite {
  language = '';
  isInitialized = false;
  private fallback = '';
  private readonly texts = new Map<string, Texts>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly plurals = new Map<string, Intl.PluralRules>();

  /** i18next's plugins: only react-i18next's, which needs nothing from here (lite-react.ts). */
  use(_plugin: unknown): this {
    return this;
  }

  init(options: LiteInitOptions): Promise<I18nLite['t']> {
    this.fallback = options.fallbackLng;
    for (const [language, { translation }] of Object.entries(options.resources ?? {}))
      this.addResourceBundle(language, 'translation', translation);
    this.isInitialized = true;
    return this.changeLanguage(options.lng);
  }

  addResourceBundle(language: string, _namespace: string, texts: Texts): this {
    this.texts.set(language, { ...this.texts.get(language), ...texts });
    this.emit('added', language);
    return this;
  }

  changeLanguage(language: string): Promise<I18nLite['t']> {
    this.language = language;
    this.emit('languageChanged', language);
    return Promise.resolve(this.t);
  }

  on(event: string, listener: Listener): this {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  exists(key: string, options: LiteOptions = {}): boolean {
    return this.find(key, options) !== undefined;
  }

  /** `t` bound to a language, as i18next.getFixedT. */
  getFixedT(language: string): I18nLite['t'] {
    return (key, options) => this.t(key, { lng: language, ...options });
  }

  readonly t = (key: string, options: LiteOptions = {}): string =>
    interpolate(this.find(key, options) ?? options.defaultValue ?? key, options);

  private emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }

  private find(key: string, options: LiteOptions): string | undefined {
    const languages = [options.lng ?? this.language, this.fallback];
    for (const language of languages) {
      const texts = this.texts.get(language);
      if (!texts) continue;
      for (const candidate of this.candidates(key, language, options.count)) {
        if (Object.hasOwn(texts, candidate)) return texts[candidate];
      }
    }
    return undefined;
  }

  private candidates(key: string, language: string, count: unknown): string[] {
    if (count === undefined || typeof count === 'string') return [key];
    const plural = `${key}_${this.pluralRules(language).select(Number(count))}`;
    return count === 0 ? [`${key}_zero`, plural, key] : [plural, key];
  }

  private pluralRules(language: string): Intl.PluralRules {
    let rules = this.plurals.get(language);
    if (!rules) this.plurals.set(language, (rules = new Intl.PluralRules(language)));
    return rules;
  }
}

function interpolate(text: string, options: LiteOptions): string {
  return text.replace(PLACEHOLDER, (placeholder, _raw: string, name: string) => {
    const key = name.trim();
    const value = options[key];
    if (value === undefined) return Object.hasOwn(options, key) ? '' : placeholder;
    return value === null ? '' : String(value);
  });
}

const i18next = new I18nLite();
export default i18next;
