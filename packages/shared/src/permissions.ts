import { ROLES, type Role } from './roles.ts';

/**
 * Per-user permissions (spec §6: each one authorised or denied). A permission can only narrow
 * what the role allows: a denied permission removes an action the role would have; an authorised
 * one never lifts a role limit. See docs/permissions.md.
 */
export const PERMISSIONS = [
  'sites.manage',
  'managers.manage',
  'end_users.manage',
  'buildings.manage',
  'flowboxes.pair',
  'valves.control',
  'schedules.manage',
  'automation.manage',
  'alerts.manage',
  'firmware.update',
  'consumption.export',
  'subscriptions.manage',
] as const;

export type Permission = (typeof PERMISSIONS)[number];
export type PermissionValue = 'authorised' | 'denied';
export type PermissionSet = Record<Permission, PermissionValue>;

const ALL_AUTHORISED = Object.fromEntries(PERMISSIONS.map((p) => [p, 'authorised'])) as PermissionSet;
const ALL_DENIED = Object.fromEntries(PERMISSIONS.map((p) => [p, 'denied'])) as PermissionSet;

/**
 * The permissions a role can ever hold (docs/permissions.md): outside them a stored "authorised" is
 * read as denied, so no permission screen can lift a role limit. Managers can hold every one.
 */
const CEILING: Partial<Record<Role, readonly Permission[]>> = {
  // The person in the flat: the valve (and the zone's leak-detection mode), its schedules, its export.
  [ROLES.end_user]: ['valves.control', 'schedules.manage', 'consumption.export'],
  // The installer on an assigned site: the pairing steps, autotests and maintenance mode.
  [ROLES.plumber]: ['flowboxes.pair', 'valves.control'],
};

/** The permissions a role may be granted (what a permission screen offers for it). */
export function grantablePermissions(role: Role): readonly Permission[] {
  return CEILING[role] ?? PERMISSIONS;
}

/** What each role may do by default; site managers do not manage sites or other managers. */
export function defaultPermissions(role: Role): PermissionSet {
  // A subscription is the customer's commitment (docs/billing.md): not a site manager's to choose.
  if (role === ROLES.site_manager)
    return {
      ...ALL_AUTHORISED,
      'sites.manage': 'denied',
      'managers.manage': 'denied',
      'subscriptions.manage': 'denied',
    };
  // An end user acts on its valve, schedules and leak detection only when its zone's manager grants it.
  if (role === ROLES.end_user) return { ...ALL_DENIED, 'consumption.export': 'authorised' };
  if (role === ROLES.plumber)
    return { ...ALL_DENIED, 'flowboxes.pair': 'authorised', 'valves.control': 'authorised' };
  return { ...ALL_AUTHORISED };
}

/** Fills the permissions a stored record lacks (a permission added later) with the role default. */
export function effectivePermissions(
  role: Role,
  stored: Partial<PermissionSet> | null | undefined,
): PermissionSet {
  const merged = { ...defaultPermissions(role), ...(stored ?? {}) };
  const ceiling = CEILING[role];
  if (!ceiling) return merged;
  for (const permission of PERMISSIONS) if (!ceiling.includes(permission)) merged[permission] = 'denied';
  return merged;
}
