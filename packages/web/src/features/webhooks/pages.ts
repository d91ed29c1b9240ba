export { WebhooksPage } from './components/WebhooksPage.tsx';
