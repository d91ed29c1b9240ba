export {
  SiteManagerAddPage,
  SiteManagerEditPage,
  SiteManagerPermissionsPage,
  SiteManagersPage,
} from './components/SiteManagersPages.tsx';
