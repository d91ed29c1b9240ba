import {
  effectivePermissions,
  type ManagerCreateSchema,
  type ManagerUpdateSchema,
  typedNameMatches,
} from '@flowbox/shared';
import {
  type EventAction,
  type ManagerUpdateAnswer,
  type Permission,
  type PermissionSet,
  type Role,
  type SiteManagerCreateInput,
  type SiteManagerUpdateInput,
  type Tokens,
  type User,
} from '@flowbox/shared';
import type { z } from 'zod';
import {
  defaultsGivenBy,
  isOfFamily,
  isPeopleFamily,
  placesOfRole,
  requireFamilyManage,
  requireFamilyRead,
  requireGrantable,
  requireOwnFamily,
  requirePlacesWithin,
  siteFilterFor,
  type Actor,
  type Family,
} from '../access/access.ts';
import { zonesNotFollowed } from '../alerts/index.ts';
import type { Context } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import type { Db } from '../db/client.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import { siteIdsOfCustomer } from '../sites/index.ts';
import { AppError, forbidden, namesMismatch, notFound } from '../errors.ts';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  replaceUserSites,
  replaceUserZones,
  siteIdsOf,
  sitesOfZones,
  zoneIdsOf,
  toApiUser,
  updateUser,
  type NewUserRow,
  type UserRow,
} from './users.repo.ts';

export type { Family };

type CreateInput = z.output<typeof ManagerCreateSchema> & { site_id?: string[]; zone_id?: string[] };
type UpdateInput = z.output<typeof ManagerUpdateSchema> & {
  site_id?: string[];
  zone_id?: string[];
  suspended?: boolean;
};

export type { SiteManagerCreateInput, SiteManagerUpdateInput };

const FAMILY_OBJECT = {
  1: 'flovea_manager',
  2: 'customer_manager',
  3: 'site_manager',
  4: 'end_user',
  5: 'plumber',
} as const;
const PG_UNIQUE_VIOLATION = '23505';
/** db/schema.ts: the index that keeps one account per email address. */
const USERS_EMAIL_UNIQUE = 'users_email_unique';
const PG_FOREIGN_KEY_VIOLATION = '23503';

/**
 * What a manager's account needs of the sessions: app.ts gives AuthService, which reads users, so
 * users import nothing of auth.
 */
export type ManagerSessions = {
  recordOf(actor: Actor): { user: UserRow; siteIds: string[] } | undefined;
  sendInvitation(user: UserRow): Promise<void>;
  revokeOtherSessions(userId: string, keepSessionId: string | null, reason: string): Promise<void>;
  renewTokens(userId: string, sessionId: string): Promise<Tokens>;
};

/** The three manager families share one implementation; only who may act differs (spec §2, §6). */
export class ManagersService {
  constructor(
    private readonly ctx: Context,
    private readonly auth: ManagerSessions,
  ) {}

  async list(
    actor: Actor,
    family: Family,
    query: { search?: string; limit: number; offset: number; siteId?: string },
  ) {
    requireFamilyRead(actor, family);
    await this.requireCustomerOf(family);
    const places = isPeopleFamily(family) ? siteFilterFor(actor) : 'all';
    const { rows, total } = await listUsers(this.ctx.db, {
      role: family.role,
      customerId: family.customerId ?? undefined,
      siteId: query.siteId,
      inSites: places === 'all' ? undefined : places,
      search: query.search,
      limit: query.limit,
      offset: query.offset,
    });
    return { items: await this.present(actor, rows), total };
  }

  async info(actor: Actor, family: Family, managerId: string): Promise<User> {
    if (actor.id === managerId) {
      requireOwnFamily(actor, family);
      // The caller's own record was read with its session (kept current as the actor is): no lookup.
      const own = this.auth.recordOf(actor);
      if (own) return toApiUser(own.user, own.siteIds, actor.zoneIds);
    } else requireFamilyRead(actor, family);
    const row = await this.findInFamily(family, managerId);
    const user = await this.presentOne(actor, row);
    // A site manager reads the people it lists: those with a place on its own sites.
    const named = user.site_id.length + user.zone_id.length;
    if (actor.id !== managerId && isPeopleFamily(family) && siteFilterFor(actor) !== 'all' && named === 0)
      throw forbidden();
    return user;
  }

  async create(actor: Actor, family: Family, input: CreateInput): Promise<User> {
    requireFamilyManage(actor, family);
    await this.requireCustomerOf(family);
    const places = placesOfRole(family.role);
    if (places === 'sites') await this.requireSitesOfCustomer(family.customerId!, input.site_id ?? []);
    if (places === 'zones') await this.requireZonesOfCustomer(family.customerId!, input.zone_id ?? []);
    await requirePlacesWithin(actor, family, () =>
      this.sitesOfPlaces(family, input.site_id ?? [], input.zone_id ?? []),
    );
    const given = defaultsGivenBy(actor, family.role);
    requireGrantable(actor, family.role, effectivePermissions(family.role, given), input.permissions ?? {});
    if (await findUserByEmail(this.ctx.db, input.email)) throw emailTaken();
    const values: NewUserRow = {
      email: input.email,
      username: input.email,
      firstname: input.firstname,
      lastname: input.lastname,
      language: input.language,
      address: input.address ?? null,
      role: family.role,
      customerId: family.customerId,
      permissions: { ...given, ...input.permissions },
    };
    const row = await this.ctx.db
      .transaction(async (tx) => {
        const created = await insertUser(tx, values, input.site_id ?? [], input.zone_id ?? []);
        await this.record(tx, actor, family, 'created', created, []);
        return created;
      })
      .catch(rethrowUnique);
    await this.auth.sendInvitation(row);
    return this.presentOne(actor, row);
  }

  async update(
    actor: Actor,
    family: Family,
    managerId: string,
    input: UpdateInput,
  ): Promise<ManagerUpdateAnswer> {
    const self = actor.id === managerId;
    if (self) {
      // A manager edits its own profile but never its own rights (spec §6 profile update).
      if (
        input.permissions !== undefined ||
        input.site_id !== undefined ||
        input.zone_id !== undefined ||
        input.suspended !== undefined
      )
        throw forbidden();
      requireOwnFamily(actor, family);
    } else {
      requireFamilyManage(actor, family);
    }
    const current = await this.findInFamily(family, managerId);
    if (!self) await requirePlacesWithin(actor, family, () => this.sitesOfUser(family, current));
    if (input.site_id) await this.requireSitesOfCustomer(family.customerId!, input.site_id);
    if (input.zone_id) await this.requireZonesOfCustomer(family.customerId!, input.zone_id);
    if (!self)
      await requirePlacesWithin(actor, family, () =>
        this.sitesOfPlaces(family, input.site_id ?? [], input.zone_id ?? []),
      );
    if (input.permissions)
      requireGrantable(
        actor,
        family.role,
        effectivePermissions(family.role, current.permissions),
        input.permissions,
      );
    if (input.alerts_instance_settings) await this.requireFollowedZones(family, current, input);
    if (input.email && input.email !== current.email) {
      const other = await findUserByEmail(this.ctx.db, input.email);
      if (other && other.id !== managerId) throw emailTaken();
    }
    const row = await this.ctx.db
      .transaction(async (tx) => {
        const updated = await updateUser(tx, managerId, this.patchOf(current, input));
        if (input.site_id) await replaceUserSites(tx, managerId, input.site_id);
        if (input.zone_id) await replaceUserZones(tx, managerId, input.zone_id);
        const { permissions, suspended, ...profile } = input;
        if (suspended !== undefined && suspended !== (current.suspendedAt !== null))
          await this.record(tx, actor, family, suspended ? 'suspended' : 'reinstated', updated, []);
        const profileFields = changedFieldsOf(profile);
        if (profileFields.length > 0) await this.record(tx, actor, family, 'updated', updated, profileFields);
        // Only the permissions whose value changed (issue 30: a saved form logged all twelve).
        const changedPermissions = permissionsChanged(family.role, current.permissions, permissions);
        if (changedPermissions.length > 0)
          await this.record(tx, actor, family, 'permissions_updated', updated, changedPermissions);
        return updated;
      })
      .catch(rethrowUnique);
    // A suspension ends the account's sessions at once (docs/permissions.md).
    if (input.suspended) await this.auth.revokeOtherSessions(managerId, null, 'account suspended');
    const user = await this.presentOne(actor, row);
    if (!self) return { user };
    // spec §7: updating one's own record answers new tokens; the session keeps one live refresh token.
    const tokens = await this.auth.renewTokens(actor.id, actor.sessionId);
    return { user, access_token: tokens.access_token, refresh_token: tokens.refresh_token };
  }

  async remove(actor: Actor, family: Family, managerId: string, confirmName: string): Promise<void> {
    requireFamilyManage(actor, family);
    if (actor.id === managerId) throw new AppError('errors.cannot_delete_self');
    const row = await this.findInFamily(family, managerId);
    await requirePlacesWithin(actor, family, () => this.sitesOfUser(family, row));
    if (!typedNameMatches(confirmName, `${row.firstname} ${row.lastname}`)) throw namesMismatch();
    await this.ctx.db.transaction(async (tx) => {
      await deleteUser(tx, managerId);
      await this.record(tx, actor, family, 'deleted', row, []);
    });
  }

  private record(
    db: Db,
    actor: Actor,
    family: Family,
    action: EventAction,
    manager: UserRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: FAMILY_OBJECT[family.role],
      objectId: manager.id,
      objectLabel: `${manager.firstname} ${manager.lastname}`,
      scope: { customerId: family.customerId },
      changedFields,
    });
  }

  /** The sites of places given to a family's user: the sites themselves, and the zones' sites. */
  private async sitesOfPlaces(family: Family, siteIds: string[], zoneIds: string[]): Promise<string[]> {
    const zoneSites = (await sitesOfZones(this.ctx.db, family.customerId!, zoneIds)).map((z) => z.siteId);
    return [...siteIds, ...zoneSites];
  }

  /** The sites of a user's own places. */
  private async sitesOfUser(family: Family, row: UserRow): Promise<string[]> {
    const [sites, zones] = await Promise.all([
      siteIdsOf(this.ctx.db, [row.id]),
      zoneIdsOf(this.ctx.db, [row.id]),
    ]);
    return this.sitesOfPlaces(family, sites.get(row.id) ?? [], zones.get(row.id) ?? []);
  }

  private async requireZonesOfCustomer(customerId: string, zoneIds: string[]): Promise<void> {
    const unique = [...new Set(zoneIds)];
    const found = await sitesOfZones(this.ctx.db, customerId, unique);
    if (found.length !== unique.length) throw new AppError('errors.invalid_zone_list');
  }

  private async findInFamily(family: Family, managerId: string): Promise<UserRow> {
    const row = await findUserById(this.ctx.db, managerId);
    if (!row || !isOfFamily(row, family)) throw notFound();
    return row;
  }

  /** A customer id that names no customer answers 404, as for sites (never an empty list or a 500). */
  private async requireCustomerOf(family: Family): Promise<void> {
    if (family.customerId === null) return;
    await requireCustomerRow(this.ctx.db, family.customerId);
  }

  private async requireSitesOfCustomer(customerId: string, siteIds: string[]): Promise<void> {
    if (siteIds.length === 0) return;
    const unique = [...new Set(siteIds)];
    const found = await siteIdsOfCustomer(this.ctx.db, customerId, unique);
    if (found.length !== unique.length) throw new AppError('errors.invalid_site_list');
  }

  /** Per-zone alert settings name only zones the user is told about (docs/alerts.md "Who is told"). */
  private async requireFollowedZones(family: Family, current: UserRow, input: UpdateInput): Promise<void> {
    const siteIds = input.site_id ?? (await siteIdsOf(this.ctx.db, [current.id])).get(current.id) ?? [];
    const outside = await zonesNotFollowed(
      this.ctx.db,
      { role: family.role, customerId: family.customerId, siteIds },
      Object.keys(input.alerts_instance_settings ?? {}),
    );
    if (outside.length > 0)
      throw new AppError(
        'errors.invalid_alert_zones',
        {},
        outside.map((id) => ({
          path: `alerts_instance_settings.${id}`,
          message: 'errors.invalid_alert_zones',
        })),
      );
  }

  private patchOf(current: UserRow, input: UpdateInput): Partial<NewUserRow> {
    const patch: Partial<NewUserRow> = {};
    if (input.firstname !== undefined) patch.firstname = input.firstname;
    if (input.lastname !== undefined) patch.lastname = input.lastname;
    if (input.email !== undefined) {
      patch.email = input.email;
      patch.username = input.email;
    }
    if (input.language !== undefined) patch.language = input.language;
    if (input.address !== undefined) patch.address = input.address;
    if (input.alert_notification_enabled !== undefined)
      patch.alertNotificationEnabled = input.alert_notification_enabled;
    if (input.alerts_settings) patch.alertsSettings = { ...current.alertsSettings, ...input.alerts_settings };
    if (input.alerts_instance_settings) patch.alertsInstanceSettings = input.alerts_instance_settings;
    if (input.suspended !== undefined)
      patch.suspendedAt = input.suspended ? (current.suspendedAt ?? this.ctx.now()) : null;
    if (input.permissions) {
      patch.permissions = { ...current.permissions, ...input.permissions } as Partial<PermissionSet>;
    }
    return patch;
  }

  private async presentOne(actor: Actor, row: UserRow): Promise<User> {
    const [user] = await this.present(actor, [row]);
    return user!;
  }

  /**
   * The API view of users as the actor may see them: their places only inside the actor's own
   * sites (a site manager's; everyone's for the others), as the people screen names them; all of
   * its own for the actor itself (docs/permissions.md "The people screen").
   */
  private async present(actor: Actor, rows: UserRow[]): Promise<User[]> {
    const own = siteFilterFor(actor);
    const others = rows.filter((r) => r.id !== actor.id).map((r) => r.id);
    const self = rows.filter((r) => r.id === actor.id).map((r) => r.id);
    const onlySites = own === 'all' ? undefined : own;
    const [sites, zones, ownSites, ownZones] = await Promise.all([
      siteIdsOf(this.ctx.db, others, onlySites),
      zoneIdsOf(this.ctx.db, others, onlySites),
      siteIdsOf(this.ctx.db, self),
      zoneIdsOf(this.ctx.db, self),
    ]);
    return rows.map((r) =>
      toApiUser(r, sites.get(r.id) ?? ownSites.get(r.id) ?? [], zones.get(r.id) ?? ownZones.get(r.id) ?? []),
    );
  }
}

const emailTaken = () => new AppError('errors.email_taken');

type PgError = { code?: string; constraint?: string };

/**
 * The database's refusals, by what they are about: only the email's uniqueness is "email taken";
 * any other unique violation is no fault of the address and goes on as the error it is.
 */
function rethrowUnique(error: unknown): never {
  const pg = (error as PgError).code ? (error as PgError) : (error as { cause?: PgError }).cause;
  if (pg?.code === PG_UNIQUE_VIOLATION && pg.constraint === USERS_EMAIL_UNIQUE) throw emailTaken();
  // The customer or a site was deleted while the call ran.
  if (pg?.code === PG_FOREIGN_KEY_VIOLATION) throw notFound();
  throw error;
}

/** The permissions a change sets to another value than the user's in force, sorted; none without a change. */
function permissionsChanged(
  role: Role,
  current: Partial<PermissionSet>,
  change: Partial<PermissionSet> | undefined,
): string[] {
  if (!change) return [];
  const before = effectivePermissions(role, current);
  const after = effectivePermissions(role, { ...current, ...change });
  return (Object.keys(change) as Permission[]).filter((key) => before[key] !== after[key]).sort();
}
