export { PeoplePage } from './components/PeoplePage.tsx';
