export { RegisterPage } from './components/RegisterPage.tsx';
export { ResetPasswordPage } from './components/ResetPasswordPage.tsx';
export { ResetPasswordRequestPage } from './components/ResetPasswordRequestPage.tsx';
export { SetPasswordPage } from './components/SetPasswordPage.tsx';
export { ConfirmRegistrationPage } from './components/ConfirmRegistrationPage.tsx';
