export { PlumbersMapPage, SitesMapPage } from './MapPages.tsx';
