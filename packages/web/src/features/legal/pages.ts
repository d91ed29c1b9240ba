export { NotFoundPage } from './components/NotFoundPage.tsx';
export { HelpPage } from './components/HelpPage.tsx';
export { PrivacyPage, TermsPage } from './components/StaticPage.tsx';
export { StatusPage } from './components/StatusPage.tsx';
