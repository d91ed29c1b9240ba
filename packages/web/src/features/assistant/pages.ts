export { AssistantPage } from './components/AssistantPage.tsx';
