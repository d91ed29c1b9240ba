export { FirmwarePage } from './components/FirmwarePage.tsx';
export { RolloutAddPage } from './components/RolloutAddPage.tsx';
export { RolloutPage } from './components/RolloutPage.tsx';
export { RolloutsPage } from './components/RolloutsPage.tsx';
