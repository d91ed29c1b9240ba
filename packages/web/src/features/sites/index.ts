export { useSite } from './api/get-site.ts';
export { useSites } from './api/list-sites.ts';
export { SiteAddPage } from './components/SiteAddPage.tsx';
export { SiteEditPage } from './components/SiteEditPage.tsx';
export { SiteEventsPage } from './components/SiteEventsPage.tsx';
export { SiteOverviewPage } from './components/SiteOverviewPage.tsx';
export { SitesPage, SitesTable } from './components/SitesPage.tsx';
export { useSiteCrumbs } from './components/useSiteCrumbs.ts';
