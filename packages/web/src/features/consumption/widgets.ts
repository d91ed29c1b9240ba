/**
 * The components consumption lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { ConsumptionCard } from './components/ConsumptionCard.tsx';
export { FlowboxConsumptionCard } from './components/FlowboxConsumptionCard.tsx';
export { ZonesComparisonCard } from './components/ZonesComparisonCard.tsx';
export { ComparisonText } from './components/ConsumptionTotal.tsx';
