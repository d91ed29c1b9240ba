export { CustomerReportsPage, SiteReportsPage } from './components/ReportsPage.tsx';
