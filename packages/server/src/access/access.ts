import {
  ROLES,
  effectivePermissions,
  type Language,
  type Permission,
  type PermissionSet,
  type Role,
} from '@flowbox/shared';
import { forbidden } from '../errors.ts';

/**
 * The caller of an authenticated request, as its session's lookup or the instance's cache of it
 * has it (auth/session-cache.ts): a role change takes effect at the next request, on every instance.
 */
export type Actor = {
  id: string;
  /** "firstname lastname", as the activity log shows who did what. */
  name: string;
  role: Role;
  customerId: string | null;
  siteIds: string[];
  language: Language;
  permissions: PermissionSet;
  sessionId: string;
};

export function makeActor(
  row: {
    id: string;
    firstname: string;
    lastname: string;
    role: Role;
    customerId: string | null;
    language: Language;
    permissions: Partial<PermissionSet>;
  },
  siteIds: string[],
  sessionId: string,
): Actor {
  return {
    id: row.id,
    name: `${row.firstname} ${row.lastname}`,
    role: row.role,
    customerId: row.customerId,
    siteIds,
    language: row.language,
    permissions: effectivePermissions(row.role, row.permissions),
    sessionId,
  };
}

/*
 * The one place that answers "may this actor do this to that?" (spec §2, §6). Every refusal is the
 * same 403 "Unauthorized resource recovery", whether or not the target exists, so scope checks never
 * tell one customer about another's records.
 */

export function requireRole(actor: Actor, ...roles: Role[]): void {
  if (!roles.includes(actor.role)) throw forbidden();
}

export function requirePermission(actor: Actor, permission: Permission): void {
  if (actor.permissions[permission] !== 'authorised') throw forbidden();
}

export function isProvider(actor: Actor): boolean {
  return actor.role === ROLES.flovea_manager;
}

/** Reading a customer's records: provider managers, and that customer's own managers. */
export function canReadCustomer(actor: Actor, customerId: string): boolean {
  return actor.role === ROLES.flovea_manager || actor.customerId === customerId;
}

export function requireCustomerRead(actor: Actor, customerId: string): void {
  if (!canReadCustomer(actor, customerId)) throw forbidden();
}

/** Managing inside a customer (sites, managers): provider managers, and that customer's customer managers. */
export function requireCustomerManage(actor: Actor, customerId: string, permission: Permission): void {
  if (actor.role === ROLES.flovea_manager) return requirePermission(actor, permission);
  if (actor.role === ROLES.customer_manager && actor.customerId === customerId)
    return requirePermission(actor, permission);
  throw forbidden();
}

/** Reading one site: the customer's managers, or a site manager to whom the site is assigned. */
export function canReadSite(actor: Actor, customerId: string, siteId: string): boolean {
  if (actor.role === ROLES.site_manager)
    return actor.customerId === customerId && actor.siteIds.includes(siteId);
  return canReadCustomer(actor, customerId);
}

export function requireSiteRead(actor: Actor, customerId: string, siteId: string): void {
  if (!canReadSite(actor, customerId, siteId)) throw forbidden();
}

/**
 * Reading what spans a place that may be wider than a site (a firmware rollout): the whole fleet
 * (no customer) is the provider's; a whole customer is its customer managers' too; a site is read
 * as any site is.
 */
export function canReadPlace(actor: Actor, customerId: string | null, siteId: string | null): boolean {
  if (customerId === null) return actor.role === ROLES.flovea_manager;
  if (siteId === null) return actor.role !== ROLES.site_manager && canReadCustomer(actor, customerId);
  return canReadSite(actor, customerId, siteId);
}

/** Acting on such a place (rolling out firmware over it): reading it, and the permission. */
export function requirePlaceManage(
  actor: Actor,
  customerId: string | null,
  siteId: string | null,
  permission: Permission,
): void {
  if (!canReadPlace(actor, customerId, siteId)) throw forbidden();
  requirePermission(actor, permission);
}

/**
 * Managing what lies inside one site (buildings, floors, zones, water points): provider managers,
 * the customer's managers, and a site manager on its own sites; each needs the permission.
 */
export function requireSiteManage(
  actor: Actor,
  customerId: string,
  siteId: string,
  permission: Permission,
): void {
  if (!canReadSite(actor, customerId, siteId)) throw forbidden();
  requirePermission(actor, permission);
}

/** The sites an actor sees inside a customer: all of them, or (site manager) only its own. */
export function siteFilterFor(actor: Actor): string[] | 'all' {
  return actor.role === ROLES.site_manager ? actor.siteIds : 'all';
}
