/*
 * The offline page (sw.js) in the reader's language: the one the app last showed on this browser
 * (its `language` in localStorage, packages/web/src/lib/i18n/index.ts), else the browser's when
 * the app speaks it, else English. It reloads once the connection is back, or on "Try again".
 */
(function () {
  const LANGUAGES = ['en', 'fr'];
  let stored = null;
  try {
    stored = window.localStorage.getItem('language');
  } catch {
    // Storage refused (a private window): the browser's language decides.
  }
  const browser = (navigator.language || '').slice(0, 2);
  const language = LANGUAGES.includes(stored) ? stored : LANGUAGES.includes(browser) ? browser : 'en';
  document.documentElement.lang = language;
  for (const section of document.querySelectorAll('[data-language]'))
    section.hidden = section.getAttribute('data-language') !== language;
  for (const button of document.querySelectorAll('[data-retry]'))
    button.addEventListener('click', () => window.location.reload());
  window.addEventListener('online', () => window.location.reload());
})();
