import { ROLES, type Permission, type Role, type User } from '@flowbox/shared';

export const FLOVEA: readonly Role[] = [ROLES.flovea_manager];
export const FLOVEA_OR_CUSTOMER: readonly Role[] = [ROLES.flovea_manager, ROLES.customer_manager];
/** Every manager role (spec §2); end users and plumbers reach only their own screens (docs/permissions.md). */
export const ANY_ROLE: readonly Role[] = [ROLES.flovea_manager, ROLES.customer_manager, ROLES.site_manager];
export const END_USER: readonly Role[] = [ROLES.end_user];
/** docs/permissions.md: an end user with `schedules.manage` edits its zones' scheduled closings. */
export const MANAGER_OR_END_USER: readonly Role[] = [...ANY_ROLE, ROLES.end_user];
export const PLUMBER: readonly Role[] = [ROLES.plumber];
/** Who reads a site's devices and alerts: managers and plumbers (docs/permissions.md). */
export const MANAGER_OR_PLUMBER: readonly Role[] = [...ANY_ROLE, ROLES.plumber];
export const EVERY_ROLE: readonly Role[] = [...ANY_ROLE, ROLES.end_user, ROLES.plumber];
/** spec §6: the assistant and the email notification setting. */
export const CUSTOMER_OR_SITE: readonly Role[] = [ROLES.customer_manager, ROLES.site_manager];

export function hasRole(user: User, roles: readonly Role[]): boolean {
  return roles.includes(user.role);
}

/** A permission only narrows what the role allows (docs/permissions.md). */
export function canDo(user: User, roles: readonly Role[], permission: Permission): boolean {
  return hasRole(user, roles) && user.permissions[permission] === 'authorised';
}
