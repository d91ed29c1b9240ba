/**
 * The components sites lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { SiteForm } from './components/SiteForm.tsx';
export { SitesTable } from './components/SitesPage.tsx';
