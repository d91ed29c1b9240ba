export { useManagers } from './api/list-managers.ts';
export { updateManager, useUpdateManager } from './api/update-manager.ts';
export type { ManagerFamilyPages, ManagerFamilyPlace, SiteChoice } from './family-pages.ts';
export { canManageFamily, fullName, ownFamily, type ManagerFamily } from './family.ts';
