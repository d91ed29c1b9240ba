import { MESSAGES_EN, type MessageKey } from '@flowbox/shared';
import i18next from 'i18next';
import { en, type UiMessageKey } from './en.ts';

/** A key of the catalogue the web shows: the server's messages and the UI's own texts. */
export type TranslationKey = MessageKey | UiMessageKey;

/** For text that may be a catalogue key or already a message (a server's translated detail). */
export function isTranslationKey(text: string): text is TranslationKey {
  // The signed-in screens' texts are known once loaded (features.ts), which is before those screens
  // show; an i18next not yet initialised answers undefined.
  return text in en || text in MESSAGES_EN || i18next.exists(text) === true;
}
