export {
  ManagerAddPage,
  ManagerEditPage,
  ManagerPermissionsPage,
  ManagersListPage,
} from './components/ManagerPages.tsx';
export { FLOVEA_MANAGERS } from './flovea-managers.ts';
export { END_USERS, PLUMBER_USERS } from './people.ts';
