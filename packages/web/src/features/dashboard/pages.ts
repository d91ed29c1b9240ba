export { DashboardPage } from './components/DashboardPage.tsx';
