/** spec §3: role is numeric 1 to 3. */
export const ROLES = {
  flovea_manager: 1,
  customer_manager: 2,
  site_manager: 3,
} as const;

export type RoleName = keyof typeof ROLES;
export type Role = (typeof ROLES)[RoleName];

export const ROLE_NAMES: Record<Role, RoleName> = {
  [ROLES.flovea_manager]: 'flovea_manager',
  [ROLES.customer_manager]: 'customer_manager',
  [ROLES.site_manager]: 'site_manager',
};

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export function roleName(role: Role): RoleName {
  return ROLE_NAMES[role];
}
