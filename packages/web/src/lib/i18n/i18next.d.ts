import type { MESSAGES } from '@flowbox/shared';
import type { en } from './en.ts';
import type { featuresEn } from './features.ts';

/** Types `t`: a key missing from the catalogue fails the typecheck (keys are flat, see index.ts). */
declare module 'i18next' {
  interface CustomTypeOptions {
    keySeparator: false;
    nsSeparator: false;
    resources: { translation: (typeof MESSAGES)['en'] & typeof en & typeof featuresEn };
  }
}
