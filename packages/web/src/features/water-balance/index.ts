/** What other features use of the water balance: the building page's card. */
export { WaterBalanceCard } from './components/WaterBalanceCard.tsx';
