export { NotFoundPage } from './components/NotFoundPage.tsx';
export { HelpPage, PrivacyPage, TermsPage } from './components/StaticPage.tsx';
export { StatusPage } from './components/StatusPage.tsx';
