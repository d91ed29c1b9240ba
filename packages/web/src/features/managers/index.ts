export { useManagers } from './api/list-managers.ts';
export { updateManager, useUpdateManager } from './api/update-manager.ts';
export {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
} from './components/ManagerPages.tsx';
export { StatusBadge } from './components/ManagersTable.tsx';
export { canManageFamily, fullName, ownFamily, type ManagerFamily } from './family.ts';
