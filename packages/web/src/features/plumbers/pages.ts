export { PlumberAddPage, PlumberEditPage } from './components/PlumberFormPage.tsx';
export { PlumbersPage } from './components/PlumbersPage.tsx';
