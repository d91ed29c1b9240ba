export { BuildingEventsPage } from './components/BuildingEventsPage.tsx';
export { CustomerEventsPage } from './components/CustomerEventsPage.tsx';
export { SiteEventsPage } from './components/SiteEventsPage.tsx';
export { ZoneEventsPage } from './components/ZoneEventsPage.tsx';
