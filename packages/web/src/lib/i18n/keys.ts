import { MESSAGES, type MessageKey } from '@flowbox/shared';
import { en, type UiMessageKey } from './en.ts';

/** A key of the catalogue the web shows: the server's messages and the UI's own texts. */
export type TranslationKey = MessageKey | UiMessageKey;

/** For text that may be a catalogue key or already a message (a server's translated detail). */
export function isTranslationKey(text: string): text is TranslationKey {
  return text in en || text in MESSAGES.en;
}
