export type { ConsumptionTarget } from './api/target.ts';
export type { ConsumptionEmpty } from './components/ConsumptionCard.tsx';
export { formatChange, formatCost, formatVolume, unitKey } from './format.ts';
export { throttle } from './live/throttle.ts';
export { useConsumption } from './api/get-consumption.ts';
