import type { Role } from '@flowbox/shared';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingState } from '../../../components/Spinner.tsx';
import { paths } from '../../../paths.ts';
import { hasRole } from '../access.ts';
import { useMe } from '../api/get-me.ts';
import { UserContext } from '../user-context.ts';

/**
 * spec §2 route guard: with no user loaded, the current user is fetched; if that fails the user
 * goes to /login?redirect=<original path>.
 */
export function RequireAuth() {
  const location = useLocation();
  const me = useMe();
  if (me.isError) return <Navigate to={paths.login.getHref(location.pathname + location.search)} replace />;
  if (!me.data) return <LoadingState />;
  return (
    <UserContext value={me.data}>
      <Outlet />
    </UserContext>
  );
}

/** spec §2: a user lacking the route's role goes to the root. */
export function RequireRole({ roles }: { roles: readonly Role[] }) {
  const me = useMe();
  if (!me.data) return <LoadingState />;
  if (!hasRole(me.data, roles)) return <Navigate to={paths.home.getHref()} replace />;
  return <Outlet />;
}
