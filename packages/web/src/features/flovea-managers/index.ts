export {
  FloveaManagerAddPage,
  FloveaManagerEditPage,
  FloveaManagerPermissionsPage,
  FloveaManagersPage,
} from './components/FloveaManagersPages.tsx';
