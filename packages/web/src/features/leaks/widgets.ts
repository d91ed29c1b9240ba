/**
 * The components leaks lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { LeakCard } from './components/LeakCard.tsx';
