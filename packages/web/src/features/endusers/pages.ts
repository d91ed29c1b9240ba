export { RegistrationsPage } from './components/RegistrationsPage.tsx';
