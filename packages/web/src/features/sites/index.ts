export { useCreateSite } from './api/create-site.ts';
export { useSite } from './api/get-site.ts';
export { sitesQueryOptions, useSites } from './api/list-sites.ts';
export { useSiteCrumbs } from './components/useSiteCrumbs.ts';
export type { SiteFormProps } from './components/SiteForm.tsx';
