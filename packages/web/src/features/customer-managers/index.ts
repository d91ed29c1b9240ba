export {
  CustomerManagerAddPage,
  CustomerManagerEditPage,
  CustomerManagerPermissionsPage,
  CustomerManagersPage,
} from './components/CustomerManagersPages.tsx';
