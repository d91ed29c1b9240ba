export { ProfileEditPage } from './components/ProfileEditPage.tsx';
export { ProfilePage } from './components/ProfilePage.tsx';
export { UpdatePasswordPage } from './components/UpdatePasswordPage.tsx';
