export { FleetPage } from './components/FleetPage.tsx';
