// The first screen, in a chunk of its own: the other sign-in pages bring zod with their forms.
export { LoginPage } from './components/LoginPage.tsx';
