/** What other features use of leak analytics: the card of the zone and building pages. */
export { LeakCard } from './components/LeakCard.tsx';
export type { LeakTarget } from './api/get-leaks.ts';
