export { SiteAddPage } from './components/SiteAddPage.tsx';
export { SiteEditPage } from './components/SiteEditPage.tsx';
export { SiteOverviewPage } from './components/SiteOverviewPage.tsx';
export { SitesPage } from './components/SitesPage.tsx';
export { SITE_MANAGERS } from './site-managers.ts';
