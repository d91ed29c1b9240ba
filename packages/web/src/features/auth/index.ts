export { ANY_ROLE, canDo, CUSTOMER_OR_SITE, FLOVEA, FLOVEA_OR_CUSTOMER, hasRole } from './access.ts';
export { ME_QUERY_KEY, useMe } from './api/get-me.ts';
export { useOptionalUser, useUser } from './user-context.ts';
export { useLogout } from './api/logout.ts';
export { RequireAuth, RequireRole, ShellWhenSignedIn } from './components/RequireAuth.tsx';
