import { ROLES, type User } from '@flowbox/shared';
import { ANY_ROLE, canDo, FLOVEA, FLOVEA_OR_CUSTOMER } from '../auth/index.ts';

/**
 * The three manager families share one API shape (spec §7), under different paths; end users and
 * plumbers (docs/permissions.md) have the same shape under their customer.
 */
export type ManagerFamily =
  | { role: typeof ROLES.flovea_manager }
  | { role: typeof ROLES.customer_manager; customerId: string }
  | { role: typeof ROLES.site_manager; customerId: string }
  | { role: typeof ROLES.end_user; customerId: string }
  | { role: typeof ROLES.plumber; customerId: string };

const KIND = {
  [ROLES.customer_manager]: 'customer_managers',
  [ROLES.site_manager]: 'site_managers',
  [ROLES.end_user]: 'end_users',
  [ROLES.plumber]: 'plumbers',
} as const;

export function familyPath(family: ManagerFamily): string {
  if (family.role === ROLES.flovea_manager) return '/flovea_managers';
  return `/customers/${family.customerId}/${KIND[family.role]}`;
}

/** Query keys nest under the customer so that deleting a customer drops its managers too. */
export function familyKey(family: ManagerFamily): readonly string[] {
  if (family.role === ROLES.flovea_manager) return ['flovea_managers'];
  return ['customers', family.customerId, KIND[family.role]];
}

/** The family a user belongs to, whose update endpoint edits its own profile (spec §6). */
export function ownFamily(user: User): ManagerFamily {
  if (user.role === ROLES.flovea_manager || !user.customer_id) return { role: ROLES.flovea_manager };
  return { role: user.role, customerId: user.customer_id };
}

/** End users and plumbers: the people of the customer's zones and sites, not its managers. */
export function isPeopleFamily(family: ManagerFamily): boolean {
  return family.role === ROLES.end_user || family.role === ROLES.plumber;
}

/**
 * Who may create, edit and delete in a family (docs/permissions.md: managers.manage; end users and
 * plumbers: any manager of their places with end_users.manage, as the server checks).
 */
export function canManageFamily(user: User, family: ManagerFamily): boolean {
  if (isPeopleFamily(family)) return canDo(user, ANY_ROLE, 'end_users.manage');
  return canDo(user, family.role === ROLES.flovea_manager ? FLOVEA : FLOVEA_OR_CUSTOMER, 'managers.manage');
}

export function fullName(user: Pick<User, 'firstname' | 'lastname'>): string {
  return `${user.firstname} ${user.lastname}`;
}
