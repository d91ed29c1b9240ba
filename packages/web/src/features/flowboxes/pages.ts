export { FlowboxDetailPage } from './components/FlowboxDetailPage.tsx';
