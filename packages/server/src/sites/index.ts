/** What the rest of the server uses of the sites domain (docs/architecture.md). */
export { findSiteRow, siteIdsOfCustomer } from './sites.repo.ts';
