export { useCreateSite } from './api/create-site.ts';
export { useSite } from './api/get-site.ts';
export { sitesQueryOptions, useSites } from './api/list-sites.ts';
export { SiteForm } from './components/SiteForm.tsx';
export { SitesTable } from './components/SitesPage.tsx';
export { useSiteCrumbs } from './components/useSiteCrumbs.ts';
