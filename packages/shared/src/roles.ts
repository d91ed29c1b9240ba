/**
 * spec §3: role is numeric. 1 to 3 are the spec's manager families; 4 and 5 are the people the spec
 * names without their permissions (§1 "end users and plumbers"), designed in docs/permissions.md.
 */
export const ROLES = {
  flovea_manager: 1,
  customer_manager: 2,
  site_manager: 3,
  end_user: 4,
  plumber: 5,
} as const;

export type RoleName = keyof typeof ROLES;
export type Role = (typeof ROLES)[RoleName];

export const ROLE_NAMES: Record<Role, RoleName> = {
  [ROLES.flovea_manager]: 'flovea_manager',
  [ROLES.customer_manager]: 'customer_manager',
  [ROLES.site_manager]: 'site_manager',
  [ROLES.end_user]: 'end_user',
  [ROLES.plumber]: 'plumber',
};

/** The roles that manage (spec §2 families); end users and plumbers are never managers. */
export const MANAGER_ROLES: readonly Role[] = [
  ROLES.flovea_manager,
  ROLES.customer_manager,
  ROLES.site_manager,
];

export function isManagerRole(role: Role): boolean {
  return MANAGER_ROLES.includes(role);
}

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export function roleName(role: Role): RoleName {
  return ROLE_NAMES[role];
}
