import type { User } from '@flowbox/shared';
import { createContext, use } from 'react';

/**
 * The user the route guard let through. Pages read it from here rather than from the query cache,
 * so that on logout (cache cleared) they are unmounted by the guard instead of rendering without it.
 */
export const UserContext = createContext<User | null>(null);

export function useUser(): User {
  const user = use(UserContext);
  if (!user) throw new Error('useUser is only for pages behind the route guard');
  return user;
}

/** The signed-in user when a guard or the footer pages' layout found one; null for a visitor. */
export function useOptionalUser(): User | null {
  return use(UserContext);
}
