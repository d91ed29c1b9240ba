import {
  PERMISSIONS,
  ROLES,
  effectivePermissions,
  grantablePermissions,
  isManagerRole,
  type Building,
  type FlowboxCommandName,
  type Language,
  type Permission,
  type PermissionSet,
  type Role,
  type Zone,
} from '@flowbox/shared';
import { AppError, forbidden } from '../errors.ts';

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
  /** A site manager's or a plumber's sites (spec §3 site_id); empty for the others. */
  siteIds: string[];
  /** An end user's zones (user_zones); empty for the others. */
  zoneIds: string[];
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
  zoneIds: string[] = [],
): Actor {
  return {
    id: row.id,
    name: `${row.firstname} ${row.lastname}`,
    role: row.role,
    customerId: row.customerId,
    siteIds,
    zoneIds,
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

/** The three manager families (spec §2); end users and plumbers are not managers. */
export function isManager(actor: Actor): boolean {
  return isManagerRole(actor.role);
}

/** What only managers do, whatever the permissions (docs/permissions.md "End users and plumbers"). */
export function requireManager(actor: Actor): void {
  if (!isManager(actor)) throw forbidden();
}

/**
 * Reading a customer's records: provider managers, and that customer's own managers. End users and
 * plumbers never read at customer level (docs/permissions.md): their lists go through their zones
 * or sites (`siteFilterFor`, `zoneFilterFor`).
 */
export function canReadCustomer(actor: Actor, customerId: string): boolean {
  if (actor.role === ROLES.flovea_manager) return true;
  return isManager(actor) && actor.customerId === customerId;
}

export function requireCustomerRead(actor: Actor, customerId: string): void {
  if (!canReadCustomer(actor, customerId)) throw forbidden();
}

/**
 * Listing inside a customer what is then filtered to the actor's own places (its sites, its
 * zones): the customer's readers, plus its plumbers and end users, who get only theirs.
 */
export function requireCustomerList(actor: Actor, customerId: string): void {
  if (canReadCustomer(actor, customerId)) return;
  if (!isManager(actor) && actor.customerId === customerId) return;
  throw forbidden();
}

/** Managing inside a customer (sites, managers): provider managers, and that customer's customer managers. */
export function requireCustomerManage(actor: Actor, customerId: string, permission: Permission): void {
  if (actor.role === ROLES.flovea_manager) return requirePermission(actor, permission);
  if (actor.role === ROLES.customer_manager && actor.customerId === customerId)
    return requirePermission(actor, permission);
  throw forbidden();
}

/**
 * Reading one site: the customer's managers, or a site manager or plumber to whom the site is
 * assigned. An end user reads no site as a whole, only its zones (`canReadZone`).
 */
export function canReadSite(actor: Actor, customerId: string, siteId: string): boolean {
  if (actor.role === ROLES.site_manager || actor.role === ROLES.plumber)
    return actor.customerId === customerId && actor.siteIds.includes(siteId);
  if (actor.role === ROLES.end_user) return false;
  return canReadCustomer(actor, customerId);
}

export function requireSiteRead(actor: Actor, customerId: string, siteId: string): void {
  if (!canReadSite(actor, customerId, siteId)) throw forbidden();
}

/**
 * Reading a site's records that are managers' business (its activity log, its billing): the
 * site's readers but plumbers, who see the site's devices and alerts only.
 */
export function requireSiteManagerRead(actor: Actor, customerId: string, siteId: string): void {
  requireManager(actor);
  requireSiteRead(actor, customerId, siteId);
}

type ZoneRef = { customerId: string; siteId: string; zoneId: string };

/** Reading one zone: whoever reads its site, and an end user bound to it (user_zones). */
export function canReadZone(actor: Actor, zone: ZoneRef): boolean {
  if (actor.role === ROLES.end_user)
    return actor.customerId === zone.customerId && actor.zoneIds.includes(zone.zoneId);
  return canReadSite(actor, zone.customerId, zone.siteId);
}

export function requireZoneRead(actor: Actor, zone: ZoneRef): void {
  if (!canReadZone(actor, zone)) throw forbidden();
}

/** Acting inside one zone (its valve, its schedules): reading it, and the permission. */
export function requireZoneManage(actor: Actor, zone: ZoneRef, permission: Permission): void {
  if (!canReadZone(actor, zone)) throw forbidden();
  requirePermission(actor, permission);
}

/** Consumption and costs: managers, and end users (their zones); a plumber sees devices, not bills. */
export function readsConsumption(actor: Actor): boolean {
  return actor.role !== ROLES.plumber;
}

/*
 * The one place that shapes zone and building answers per role (docs/permissions.md): a plumber
 * reads no costs, so their prices are null for it, as for a place without one. A site's answer
 * holds nothing a reader of the site may not see; a flowbox's names its firmware version, which
 * a plumber troubleshooting the device needs.
 */
export function zoneAnswerFor(actor: Actor, zone: Zone): Zone {
  if (readsConsumption(actor)) return zone;
  return { ...zone, price_per_unit: null, effective_price_per_unit: null };
}

export function buildingAnswerFor(actor: Actor, building: Building): Building {
  if (readsConsumption(actor)) return building;
  return { ...building, price_per_unit: null };
}

/** Reading a zone's consumption: reading the zone, and reading consumption at all. */
export function requireConsumptionRead(actor: Actor, zone: ZoneRef): void {
  if (!readsConsumption(actor)) throw forbidden();
  requireZoneRead(actor, zone);
}

/**
 * The commands each non-manager role may send (with `valves.control`, docs/permissions.md): an end
 * user its valve and leak detection; a plumber maintenance mode and autotests. Managers send all.
 */
const COMMANDS_OF: Partial<Record<Role, readonly FlowboxCommandName[]>> = {
  [ROLES.end_user]: ['valve_open', 'valve_close', 'leak_detection_on', 'leak_detection_off'],
  [ROLES.plumber]: ['maintenance_on', 'maintenance_off', 'autotest'],
};

export function requireCommand(actor: Actor, zone: ZoneRef, name: FlowboxCommandName): void {
  requireZoneManage(actor, zone, 'valves.control');
  const allowed = COMMANDS_OF[actor.role];
  if (allowed && !allowed.includes(name)) throw forbidden();
}

/** The zone modes each non-manager role may switch (a zone update with those fields only). */
const ZONE_MODES_OF: Partial<Record<Role, readonly string[]>> = {
  [ROLES.end_user]: ['leak_detection_mode'],
  [ROLES.plumber]: ['maintenance_mode'],
};

/** The zone modes an actor who is not a manager may switch; undefined for managers. */
export function zoneModesOf(actor: Actor): readonly string[] | undefined {
  return ZONE_MODES_OF[actor.role];
}

/**
 * Reading what spans a place that may be wider than a site (a firmware rollout): the whole fleet
 * (no customer) is the provider's; a whole customer is its customer managers' too; a site is read
 * as any site is, by managers (firmware is no plumber's or end user's business).
 */
export function canReadPlace(actor: Actor, customerId: string | null, siteId: string | null): boolean {
  if (!isManager(actor)) return false;
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
 * the customer's managers, and a site manager on its own sites; each needs the permission. A
 * plumber passes only for what its permissions allow (the pairing steps).
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

/**
 * Issuing a zone's claim codes and reviewing its registrations (docs/permissions.md
 * "Registration"): the managers who read the zone's site, with `end_users.manage`. A code that
 * approves by itself approves only while its issuer still passes this.
 */
export function canIssueClaimCodes(actor: Actor, customerId: string, siteId: string): boolean {
  return (
    isManager(actor) &&
    canReadSite(actor, customerId, siteId) &&
    actor.permissions['end_users.manage'] === 'authorised'
  );
}

/** The sites an actor sees inside a customer: all of them, or only its own (site manager, plumber; none for an end user). */
export function siteFilterFor(actor: Actor): string[] | 'all' {
  if (actor.role === ROLES.site_manager || actor.role === ROLES.plumber) return actor.siteIds;
  if (actor.role === ROLES.end_user) return [];
  return 'all';
}

/** The zones an actor sees: an end user its own; everyone else what its sites allow. */
export function zoneFilterFor(actor: Actor): string[] | 'all' {
  return actor.role === ROLES.end_user ? actor.zoneIds : 'all';
}

/**
 * The places an actor sees, as the conditions every list reads by: everything (provider), or its
 * customer narrowed to its sites (site manager, plumber) or its zones (end user). A user of any
 * other role without a customer (none should exist: deleting a customer deletes its users) gets a
 * customer id that names nothing, never the absence of a condition.
 */
export type PlaceScope = { customerId?: string; siteIds?: string[]; zoneIds?: string[] };

const NO_CUSTOMER = '00000000-0000-0000-0000-000000000000';

export function placeScopeOf(actor: Actor): PlaceScope {
  if (isProvider(actor)) return {};
  const customerId = actor.customerId ?? NO_CUSTOMER;
  const zoneIds = zoneFilterFor(actor);
  if (zoneIds !== 'all') return { customerId, zoneIds: [...zoneIds] };
  const siteIds = siteFilterFor(actor);
  return siteIds === 'all' ? { customerId } : { customerId, siteIds: [...siteIds] };
}

/*
 * The plumber directory and the maps (docs/maps.md). The managers' roles only: a customer's
 * entries are read by its managers (site managers included) and managed by its customer managers
 * and the provider managers ('sites.manage'); the provider's shared entries (no customer) are read
 * by every manager and managed by the provider managers.
 */
export function canReadPlumbersOf(actor: Actor, customerId: string | null): boolean {
  if (!isManager(actor)) return false;
  return customerId === null || canReadCustomer(actor, customerId);
}

export function requirePlumbersManage(actor: Actor, customerId: string | null): void {
  if (customerId !== null) return requireCustomerManage(actor, customerId, 'sites.manage');
  requireRole(actor, ROLES.flovea_manager);
  requirePermission(actor, 'sites.manage');
}

/**
 * Whom an actor sees on the people screen (`/v1/users/list`, issue 18): a provider manager
 * everyone; a customer manager its customer's people; a site manager the site managers, end users
 * and plumbers of its own sites (and of their zones); end users and plumbers no one (403).
 */
export type PeopleScope =
  | { kind: 'all' }
  | { kind: 'customer'; customerId: string }
  | { kind: 'sites'; customerId: string; siteIds: string[]; roles: Role[] };

export function peopleScopeFor(actor: Actor): PeopleScope {
  requireManager(actor);
  if (actor.role === ROLES.flovea_manager) return { kind: 'all' };
  if (!actor.customerId) throw forbidden();
  if (actor.role === ROLES.customer_manager) return { kind: 'customer', customerId: actor.customerId };
  return {
    kind: 'sites',
    customerId: actor.customerId,
    siteIds: actor.siteIds,
    roles: [ROLES.site_manager, ROLES.end_user, ROLES.plumber],
  };
}

/*
 * Writing someone's permissions (docs/permissions.md "Granting permissions"), on every call that
 * does: the families' create and update. An actor sets authorised only what it holds itself (a
 * provider manager holds them all), and never what the target's role cannot hold.
 */

function holds(actor: Actor, permission: Permission): boolean {
  return isProvider(actor) || actor.permissions[permission] === 'authorised';
}

/**
 * Refuses a write that would authorise, for a user of `role` whose effective permissions are
 * `current` (for a new user: what it is given by default), what the role cannot hold (400) or what
 * the actor does not hold (403). A value the user already has is no grant: a permission screen
 * saves the whole set. Denying is always allowed: it narrows.
 */
export function requireGrantable(
  actor: Actor,
  role: Role,
  current: PermissionSet,
  patch: Partial<PermissionSet>,
): void {
  const authorised = PERMISSIONS.filter((p) => patch[p] === 'authorised');
  const ceiling = grantablePermissions(role);
  const aboveRole = authorised.filter((p) => !ceiling.includes(p));
  if (aboveRole.length > 0)
    throw new AppError('errors.validation', {}, issuesOf(aboveRole, 'validation.permission_above_role'));
  const notHeld = authorised.filter((p) => current[p] !== 'authorised' && !holds(actor, p));
  if (notHeld.length > 0)
    throw new AppError('errors.permission_not_held', {}, issuesOf(notHeld, 'errors.permission_not_held'));
}

const issuesOf = (permissions: Permission[], message: string) =>
  permissions.map((p) => ({ path: `permissions.${p}`, message }));

/**
 * What a new user of `role` is given when `actor` creates it: the role's defaults, less what the
 * actor does not hold itself (stored as denied), silently, since the inviter asked for nothing.
 */
export function defaultsGivenBy(actor: Actor, role: Role): Partial<PermissionSet> {
  const defaults = effectivePermissions(role, {});
  return Object.fromEntries(
    PERMISSIONS.filter((p) => defaults[p] === 'authorised' && !holds(actor, p)).map((p) => [p, 'denied']),
  );
}
