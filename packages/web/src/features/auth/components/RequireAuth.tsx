import type { Role } from '@flowbox/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingState } from '../../../components/Spinner.tsx';
import { paths } from '../../../paths.ts';
import { hasRole } from '../access.ts';
import { meQueryOptions, useMe } from '../api/get-me.ts';
import { refreshToken } from '../../../lib/tokens.ts';
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

/**
 * Pages open to everyone (terms, privacy, help, status): inside the app shell for a signed-in user,
 * so the navigation stays at hand; standing alone for a visitor, who is never asked to sign in.
 * Only a browser holding a session asks who its user is.
 */
export function ShellWhenSignedIn({ shell, alone }: { shell: ReactNode; alone: ReactNode }) {
  const hasSession = Boolean(refreshToken());
  const me = useQuery({ ...meQueryOptions(), enabled: hasSession });
  if (!hasSession || me.isError) return alone;
  if (!me.data) return <LoadingState />;
  return <UserContext value={me.data}>{shell}</UserContext>;
}
