import {
  PERMISSIONS,
  ROLES,
  effectivePermissions,
  grantablePermissions,
  isManagerRole,
  type Building,
  type FlowboxCommandName,
  type Language,
  type LiveMessage,
  type Permission,
  type PermissionSet,
  type Role,
  type Zone,
} from '@flowbox/shared';
import { AppError, forbidden, notFound } from '../errors.ts';

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
 * tell one customer about another's records. Nothing outside access/ compares a user's role or reads
 * a permission's value (architecture.test.ts "authorisation lives in access/").
 */

/** What the reading rules look at: an actor, or a user the server decides for (who is told of an alert). */
type Reader = Pick<Actor, 'role' | 'customerId'> & { siteIds: readonly string[]; zoneIds: readonly string[] };

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
export function isManager(actor: Pick<Actor, 'role'>): boolean {
  return isManagerRole(actor.role);
}

/** What only managers do, whatever the permissions (docs/permissions.md "End users and plumbers"). */
export function requireManager(actor: Actor): void {
  if (!isManager(actor)) throw forbidden();
}

/**
 * What only the provider's managers manage, each with its permission: pricing plans, the firmware
 * catalogue, the alert settings, the provider managers, the shared plumber entries.
 */
export function requireProviderManage(actor: Actor, permission: Permission): void {
  requireRole(actor, ROLES.flovea_manager);
  requirePermission(actor, permission);
}

/**
 * What belongs to the instance rather than to a customer, read by the provider's managers only:
 * its device-messaging and job counters (`/v1/metrics`), the emails it sent (`/v1/outbox`).
 */
export function requireInstanceRead(actor: Actor): void {
  requireRole(actor, ROLES.flovea_manager);
}

/**
 * Web Push subscriptions (docs/push.md): every signed-in user, whatever their role, subscribes and
 * lists and removes their own browsers only, and nobody another's, a provider manager included. The
 * answer is the user whose browsers a call may touch; one not among them is not found, whoever
 * holds it, so another's never shows.
 */
export function pushSubscriberOf(actor: Actor): string {
  return actor.id;
}

/**
 * How a person is told of alerts (docs/alerts.md "How each person is told"): the people alerts
 * reach (customer and site managers, end users) set their own, and nobody another's; provider
 * managers and plumbers, never told, have none to set. The answer is whose preferences.
 */
export function notifiedUserOf(actor: Actor): string {
  requireRole(actor, ROLES.customer_manager, ROLES.site_manager, ROLES.end_user);
  return actor.id;
}

/**
 * Snoozing an alert's pushes (docs/push.md "Snooze"): anyone who reads the alert, whatever their
 * role, holds back their own pushes of it, and nobody another's. The answer is whose pushes wait.
 */
export function requirePushSnooze(actor: Actor, alert: ZoneRef): string {
  requireZoneRead(actor, alert);
  return pushSubscriberOf(actor);
}

/**
 * The answer to an id that names nothing: a provider manager, whose scope is everything, is told it
 * does not exist (404); anyone else gets the refusal it would get for another customer's record, so
 * existence never leaks (docs/permissions.md).
 */
export function unknownTo(actor: Actor): AppError {
  return isProvider(actor) ? notFound() : forbidden();
}

/**
 * Reading a customer's records: provider managers, and that customer's own managers. End users and
 * plumbers never read at customer level (docs/permissions.md): their lists go through their zones
 * or sites (`siteFilterFor`, `zoneFilterFor`).
 */
export function canReadCustomer(actor: Reader, customerId: string): boolean {
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
 * A customer's webhooks (docs/webhooks.md): its customer managers and the provider's managers, who
 * manage every customer. Site managers do not: a webhook tells of every site of the customer.
 */
export function requireWebhooksManage(actor: Actor, customerId: string): void {
  if (actor.role === ROLES.flovea_manager) return;
  if (actor.role === ROLES.customer_manager && actor.customerId === customerId) return;
  throw forbidden();
}

/**
 * Reading one site: the customer's managers, or a site manager or plumber to whom the site is
 * assigned. An end user reads no site as a whole, only its zones (`canReadZone`).
 */
export function canReadSite(actor: Reader, customerId: string, siteId: string): boolean {
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

/**
 * Reports (docs/reports.md "Who"): a customer's (siteId null) are read by the provider's managers
 * and its customer managers, as its overview is (spec §6); a site's by its managers, its site
 * managers too. Managing their schedules and generating one also takes `consumption.export`: a
 * report is an export of consumption.
 */
export function requireReportsRead(actor: Actor, customerId: string, siteId: string | null): void {
  if (siteId !== null) return requireSiteManagerRead(actor, customerId, siteId);
  if (actor.role !== ROLES.flovea_manager && actor.role !== ROLES.customer_manager) throw forbidden();
  requireCustomerRead(actor, customerId);
}

export function requireReportsManage(actor: Actor, customerId: string, siteId: string | null): void {
  requireReportsRead(actor, customerId, siteId);
  requirePermission(actor, 'consumption.export');
}

/** The roles a report's recipients may have: the customer's own managers (a provider has no customer). */
export const REPORT_RECEIVER_ROLES: readonly Role[] = [ROLES.customer_manager, ROLES.site_manager];

/**
 * Whether a user may receive a scope's reports: a user of that customer who reads them
 * (`requireReportsRead`), checked again at each sending, so a manager moved off a site stops
 * receiving its reports.
 */
export function receivesReportsOf(user: Reader, customerId: string, siteId: string | null): boolean {
  if (!REPORT_RECEIVER_ROLES.includes(user.role) || user.customerId !== customerId) return false;
  if (siteId === null) return user.role === ROLES.customer_manager;
  return canReadSite(user, customerId, siteId);
}

type ZoneRef = { customerId: string; siteId: string; zoneId: string };

/** Reading one zone: whoever reads its site, and an end user bound to it (user_zones). */
export function canReadZone(actor: Reader, zone: ZoneRef): boolean {
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

/*
 * The resident's own app (issue 33, docs/permissions.md "End users and plumbers"): "Was this you?"
 * and away mode, the zone's business of the people who live there and of its managers; a plumber,
 * who installs devices, neither answers nor sets them.
 */

/**
 * Answering "Was this you?" on an alert: the zone's end users and the managers who read its site,
 * whatever their permissions (an answer tells, it changes nothing of the water).
 */
export function requireAlertAnswer(actor: Actor, zone: ZoneRef): void {
  if (actor.role === ROLES.plumber) throw forbidden();
  requireZoneRead(actor, zone);
}

/** Whose answers an alert shows a reader: a manager everyone's, an end user its own only. */
export function answersShownTo(actor: Actor): 'all' | string {
  return isManager(actor) ? 'all' : actor.id;
}

/**
 * Setting or switching off a zone's away mode: its end users, and the managers who may manage its
 * automatic closing (`automation.manage`). Closing the water at the first flow is a valve action:
 * an end user chooses it only with `valves.control`.
 */
export function requireAwayModeSet(actor: Actor, zone: ZoneRef, closeOnFlow: boolean): void {
  if (actor.role === ROLES.plumber) throw forbidden();
  if (actor.role !== ROLES.end_user)
    return requireSiteManage(actor, zone.customerId, zone.siteId, 'automation.manage');
  requireZoneRead(actor, zone);
  if (closeOnFlow) requirePermission(actor, 'valves.control');
}

/** A place a list's filter names, by its ids up to its customer; undefined when the id names nothing. */
export type FilteredPlace = { customerId: string; siteId?: string; zoneId?: string } | undefined;

/** Filtering a list by places: each must exist and be read by the actor (`unknownTo` when it does not exist). */
export function requireFilterRead(actor: Actor, places: readonly FilteredPlace[]): void {
  for (const place of places) {
    if (!place) throw unknownTo(actor);
    const { customerId, siteId, zoneId } = place;
    if (siteId === undefined) requireCustomerRead(actor, customerId);
    else if (zoneId === undefined) requireSiteRead(actor, customerId, siteId);
    else requireZoneRead(actor, { customerId, siteId, zoneId });
  }
}

/**
 * Whose alerts a user is told about (docs/alerts.md "Who is told"): its role, customer, (site
 * managers) sites and (end users) zones.
 */
export type AlertFollower = Pick<Actor, 'role' | 'customerId'> & {
  siteIds: readonly string[];
  zoneIds?: readonly string[];
};

/** A user is told about the alerts of the zones it reads; a plumber about none. */
export function followsZone(user: AlertFollower, zone: ZoneRef): boolean {
  if (user.role === ROLES.plumber) return false;
  return canReadZone({ ...user, zoneIds: user.zoneIds ?? [] }, zone);
}

/**
 * Who sees a live message: whoever may read its zone, as with the REST calls (docs/permissions.md
 * "Live updates"); firmware is managers' business, consumption no plumber's.
 */
export function mayReceive(actor: Actor, message: LiveMessage): boolean {
  if (message.type === 'firmware_rollout') return canReadPlace(actor, message.customer_id, message.site_id);
  const { customer_id, site_id, zone_id } = message.type === 'flowbox' ? message.flowbox : message;
  if (message.type === 'firmware_update') return canReadPlace(actor, customer_id, site_id);
  if (message.type === 'consumption' && !readsConsumption(actor)) return false;
  return canReadZone(actor, { customerId: customer_id, siteId: site_id, zoneId: zone_id });
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

/**
 * Creating or changing a zone as a whole: `buildings.manage` on its site, and `valves.control` too
 * to set its maintenance or leak-detection mode, which are valve actions (docs/permissions.md).
 */
export function requireZoneWrite(
  actor: Actor,
  site: { customerId: string; siteId: string },
  input: Record<string, unknown>,
): void {
  requireSiteManage(actor, site.customerId, site.siteId, 'buildings.manage');
  if (input.maintenance_mode !== undefined || input.leak_detection_mode !== undefined)
    requirePermission(actor, 'valves.control');
}

/**
 * Updating a zone: who is not a manager switches only its role's zone modes (a plumber the
 * maintenance mode, an end user leak detection), with `valves.control`, and nothing else of the
 * zone; a manager writes it as a whole (`requireZoneWrite`).
 */
export function requireZoneUpdate(actor: Actor, zone: ZoneRef, input: Record<string, unknown>): void {
  const modes = ZONE_MODES_OF[actor.role];
  if (!modes) return requireZoneWrite(actor, zone, input);
  const fields = Object.entries(input).filter(([, value]) => value !== undefined);
  if (fields.length === 0 || fields.some(([field]) => !modes.includes(field))) throw forbidden();
  requireZoneManage(actor, zone, 'valves.control');
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

export function requireClaimCodeIssue(actor: Actor, customerId: string, siteId: string): void {
  if (!canIssueClaimCodes(actor, customerId, siteId)) throw forbidden();
}

/**
 * Where a user of a role is placed (spec §3 site_id, user_zones): site managers and plumbers on
 * sites, end users in zones; the provider's and customer managers have no places of their own.
 */
export function placesOfRole(role: Role): 'sites' | 'zones' | 'none' {
  if (role === ROLES.site_manager || role === ROLES.plumber) return 'sites';
  return role === ROLES.end_user ? 'zones' : 'none';
}

/** The sites an actor sees inside a customer: all of them, or only its own (site manager, plumber; none for an end user). */
export function siteFilterFor(actor: Actor): string[] | 'all' {
  const places = placesOfRole(actor.role);
  if (places === 'sites') return actor.siteIds;
  return places === 'zones' ? [] : 'all';
}

/** The zones an actor sees: an end user its own; everyone else what its sites allow. */
export function zoneFilterFor(actor: Actor): string[] | 'all' {
  return placesOfRole(actor.role) === 'zones' ? actor.zoneIds : 'all';
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
  requireProviderManage(actor, 'sites.manage');
}

/**
 * The plumbers' directory an actor lists, asked for one customer's (`customerId`) or not: the
 * provider's managers any customer's or everyone's; a customer's managers their own customer's only.
 */
export function plumberDirectoryFor(
  actor: Actor,
  customerId: string | undefined,
): { customerId: string | null; all: boolean } {
  if (isProvider(actor)) return { customerId: customerId ?? null, all: customerId === undefined };
  if (!isManager(actor) || actor.customerId === null) throw forbidden();
  if (customerId !== undefined && customerId !== actor.customerId) throw forbidden();
  return { customerId: actor.customerId, all: false };
}

/*
 * Firmware images (docs/permissions.md, docs/firmware.md): the provider's managers see the whole
 * catalogue; a customer's managers the images released to every customer or to theirs; nobody else
 * any. Which statuses a customer's managers see is the catalogue's business (firmware/).
 */

/** Whose releases an actor reads the catalogue for: `'any'` (the provider's) or its customer's. */
export function firmwareReaderOf(actor: Actor): 'any' | string {
  if (isProvider(actor)) return 'any';
  if (actor.customerId === null || !isManager(actor)) throw forbidden();
  return actor.customerId;
}

/** Whether a manager of a customer may use an image: released to every customer, or to its own. */
export function isReleasedTo(
  actor: Actor,
  image: { releasedToAll: boolean; customerIds: readonly string[] },
): boolean {
  return image.releasedToAll || (actor.customerId !== null && image.customerIds.includes(actor.customerId));
}

/** The customers an image's release is shown with: all of them to the provider, only its own to a customer. */
export function releaseShownTo(actor: Actor, customerIds: readonly string[]): string[] {
  return isProvider(actor) ? [...customerIds] : customerIds.filter((id) => id === actor.customerId);
}

/*
 * The user families (spec §7): provider, customer and site managers, and a customer's end users
 * and plumbers, "people" (docs/permissions.md). Who reads and manages each.
 */

/** Which family of users a call is about: its role, in its customer (none for provider managers). */
export type Family = { role: Role; customerId: string | null };

/** End users and plumbers: managed by their places' managers with `end_users.manage`. */
export function isPeopleFamily(family: Family): boolean {
  return !isManagerRole(family.role);
}

/** Whether a user is of the family: its role, in its customer. */
export function isOfFamily(user: Family, family: Family): boolean {
  return user.role === family.role && user.customerId === family.customerId;
}

/** A manager acting on its own record does so through its own family's calls only (spec §6). */
export function requireOwnFamily(actor: Actor, family: Family): void {
  if (!isOfFamily(actor, family)) throw forbidden();
}

/**
 * Reading a family: provider managers by provider managers; a customer's managers by the provider's
 * and that customer's customer managers; people by those who manage them (`requirePeopleManage`).
 */
export function requireFamilyRead(actor: Actor, family: Family): void {
  if (isPeopleFamily(family)) return requirePeopleManage(actor, family.customerId!);
  if (family.role === ROLES.flovea_manager) return requireRole(actor, ROLES.flovea_manager);
  requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
  requireCustomerRead(actor, family.customerId!);
}

/** Managing a family: as reading it, with `managers.manage` for managers (`end_users.manage` for people). */
export function requireFamilyManage(actor: Actor, family: Family): void {
  if (isPeopleFamily(family)) return requirePeopleManage(actor, family.customerId!);
  if (family.role === ROLES.flovea_manager) return requireProviderManage(actor, 'managers.manage');
  requireCustomerManage(actor, family.customerId!, 'managers.manage');
}

/**
 * A customer's end users and plumbers, and their registrations: the customer's managers (site
 * managers on their own sites, `requirePlacesWithin`), with `end_users.manage`.
 */
export function requirePeopleManage(actor: Actor, customerId: string): void {
  requireCustomerRead(actor, customerId);
  requirePermission(actor, 'end_users.manage');
}

/**
 * A site manager gives and takes only places of its own sites (docs/permissions.md): the sites of
 * the people's places concerned (`sitesOf`, read only when the actor is held to its sites) are all
 * its own.
 */
export async function requirePlacesWithin(
  actor: Actor,
  family: Family,
  sitesOf: () => Promise<string[]>,
): Promise<void> {
  if (!isPeopleFamily(family)) return;
  const own = siteFilterFor(actor);
  if (own === 'all') return;
  if ((await sitesOf()).some((site) => !own.includes(site))) throw forbidden();
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
