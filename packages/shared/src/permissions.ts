import { ROLES, type Role } from './roles.ts';

/**
 * Per-user permissions (spec §6: each one authorised or denied). A permission can only narrow
 * what the role allows: a denied permission removes an action the role would have; an authorised
 * one never lifts a role limit. See docs/permissions.md.
 */
export const PERMISSIONS = [
  'sites.manage',
  'managers.manage',
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
  return { ...ALL_AUTHORISED };
}

/** Fills the permissions a stored record lacks (a permission added later) with the role default. */
export function effectivePermissions(
  role: Role,
  stored: Partial<PermissionSet> | null | undefined,
): PermissionSet {
  return { ...defaultPermissions(role), ...(stored ?? {}) };
}
