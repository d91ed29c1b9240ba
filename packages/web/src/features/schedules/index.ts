export { ZoneSchedulesCard } from './components/ZoneSchedulesCard.tsx';
