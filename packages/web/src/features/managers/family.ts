import { ROLES, type User } from '@flowbox/shared';
import { canDo, FLOVEA, FLOVEA_OR_CUSTOMER } from '../auth/index.ts';

/** The three manager families share one API shape (spec §7), under different paths. */
export type ManagerFamily =
  | { role: typeof ROLES.flovea_manager }
  | { role: typeof ROLES.customer_manager; customerId: string }
  | { role: typeof ROLES.site_manager; customerId: string };

export function familyPath(family: ManagerFamily): string {
  if (family.role === ROLES.flovea_manager) return '/flovea_managers';
  const kind = family.role === ROLES.customer_manager ? 'customer_managers' : 'site_managers';
  return `/customers/${family.customerId}/${kind}`;
}

/** Query keys nest under the customer so that deleting a customer drops its managers too. */
export function familyKey(family: ManagerFamily): readonly string[] {
  if (family.role === ROLES.flovea_manager) return ['flovea_managers'];
  return [
    'customers',
    family.customerId,
    family.role === ROLES.customer_manager ? 'customer_managers' : 'site_managers',
  ];
}

/** The family a user belongs to, whose update endpoint edits its own profile (spec §6). */
export function ownFamily(user: User): ManagerFamily {
  if (user.role === ROLES.flovea_manager || !user.customer_id) return { role: ROLES.flovea_manager };
  return { role: user.role, customerId: user.customer_id };
}

/** Who may create, edit and delete in a family (docs/permissions.md: managers.manage). */
export function canManageFamily(user: User, family: ManagerFamily): boolean {
  return canDo(user, family.role === ROLES.flovea_manager ? FLOVEA : FLOVEA_OR_CUSTOMER, 'managers.manage');
}

export function fullName(user: Pick<User, 'firstname' | 'lastname'>): string {
  return `${user.firstname} ${user.lastname}`;
}
