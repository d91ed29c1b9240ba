import { ROLES, type Permission, type Role, type User } from '@flowbox/shared';

export const FLOVEA: readonly Role[] = [ROLES.flovea_manager];
export const FLOVEA_OR_CUSTOMER: readonly Role[] = [ROLES.flovea_manager, ROLES.customer_manager];
export const ANY_ROLE: readonly Role[] = [ROLES.flovea_manager, ROLES.customer_manager, ROLES.site_manager];
/** spec §6: the assistant and the email notification setting. */
export const CUSTOMER_OR_SITE: readonly Role[] = [ROLES.customer_manager, ROLES.site_manager];

export function hasRole(user: User, roles: readonly Role[]): boolean {
  return roles.includes(user.role);
}

/** A permission only narrows what the role allows (docs/permissions.md). */
export function canDo(user: User, roles: readonly Role[], permission: Permission): boolean {
  return hasRole(user, roles) && user.permissions[permission] === 'authorised';
}
