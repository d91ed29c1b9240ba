export type { ConsumptionTarget } from './api/target.ts';
export { ConsumptionCard, type ConsumptionEmpty } from './components/ConsumptionCard.tsx';
export { FlowboxConsumptionCard } from './components/FlowboxConsumptionCard.tsx';
export { ZonesComparisonCard } from './components/ZonesComparisonCard.tsx';
export { ComparisonText } from './components/ConsumptionTotal.tsx';
export { formatChange, formatCost, formatVolume, unitKey } from './format.ts';
export { throttle } from './live/throttle.ts';
export { useConsumption } from './api/get-consumption.ts';
