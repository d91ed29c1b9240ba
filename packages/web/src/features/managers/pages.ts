export {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
} from './components/ManagerPages.tsx';
export { FLOVEA_MANAGERS } from './flovea-managers.ts';
