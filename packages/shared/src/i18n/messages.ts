import type { Language } from '../roles.ts';
import { MESSAGES_EN } from './messages-en.ts';
import { MESSAGES_FR } from './messages-fr.ts';

export { MESSAGES_EN } from './messages-en.ts';
export { MESSAGES_FR } from './messages-fr.ts';

/**
 * The catalogue of messages the server sends and the web shows (spec §5, §8), EN and FR.
 * Keys are stable codes; `{{name}}` placeholders are filled by `translate`.
 */
export const MESSAGES = { en: MESSAGES_EN, fr: MESSAGES_FR } as const satisfies Record<
  Language,
  Record<string, string>
>;

export type MessageKey = keyof (typeof MESSAGES)['en'];
export type ErrorCode = Extract<MessageKey, `errors.${string}`>;

export function isMessageKey(text: string): text is MessageKey {
  return text in MESSAGES_EN;
}

export function translate(
  key: MessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  const template: string = MESSAGES[language][key] ?? MESSAGES.en[key];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Picks en or fr from an Accept-Language header, by the first supported tag in order of weight. */
export function languageFromHeader(header: string | undefined): Language {
  if (!header) return 'en';
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((t) => !Number.isNaN(t.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    if (tag.startsWith('fr')) return 'fr';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}
