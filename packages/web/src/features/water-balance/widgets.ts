/**
 * The components water-balance lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { WaterBalanceCard } from './components/WaterBalanceCard.tsx';
