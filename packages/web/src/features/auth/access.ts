import type { Permission, Role, User } from '@flowbox/shared';

export const FLOVEA: readonly Role[] = [1];
export const FLOVEA_OR_CUSTOMER: readonly Role[] = [1, 2];
export const ANY_ROLE: readonly Role[] = [1, 2, 3];
/** spec §6: the assistant and the email notification setting. */
export const CUSTOMER_OR_SITE: readonly Role[] = [2, 3];

export function hasRole(user: User, roles: readonly Role[]): boolean {
  return roles.includes(user.role);
}

/** A permission only narrows what the role allows (docs/permissions.md). */
export function canDo(user: User, roles: readonly Role[], permission: Permission): boolean {
  return hasRole(user, roles) && user.permissions[permission] === 'authorised';
}
