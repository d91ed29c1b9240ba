export { MyZonePage } from './components/MyZonePage.tsx';
