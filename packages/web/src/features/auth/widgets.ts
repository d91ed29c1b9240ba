/**
 * The components auth lends the app, which composes them into other features' pages and the
 * shell (app/); no feature imports them.
 */
export { RequireAuth, RequireRole, ShellWhenSignedIn } from './components/RequireAuth.tsx';
