export { OutboxPage } from './components/OutboxPage.tsx';
