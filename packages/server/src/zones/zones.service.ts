import { typedNameMatches } from '@flowbox/shared';
import type {
  EventAction,
  ListQuery,
  Zone,
  ZoneCreateSchema,
  ZoneDirectoryQuery,
  ZoneUpdateSchema,
} from '@flowbox/shared';
import type { z } from 'zod';
import {
  requireCustomerList,
  requireSiteManage,
  requireSiteRead,
  requireZoneRead,
  requireZoneUpdate,
  requireZoneWrite,
  siteFilterFor,
  zoneAnswerFor,
  zoneFilterFor,
  type Actor,
} from '../access/access.ts';
import { requireBuildingRow, findFloor } from '../buildings/index.ts';
import type { Context, RemoveBelow } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import type { BuildingPath, ZonePath } from '../http/params.ts';
import type { DeviceLink } from '../devices/index.ts';
import { heardEverything, type HeardCache, type Notifications } from '../live/index.ts';
import {
  deleteZone,
  findZone,
  findZoneRow,
  insertZone,
  listCustomerZones,
  listZones,
  updateZone,
  type NewZoneRow,
  type ZoneRow,
} from './zones.repo.ts';
import { frozen, isAt } from './overview-cache.ts';

type UpdateInput = z.output<typeof ZoneUpdateSchema>;

/** Zones of a building (spec §3): read like their site, managed with `buildings.manage`. */
export class ZonesService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
    /** The flowboxes below, retired by their domain (composed in app.ts). */
    private readonly removeBelow: RemoveBelow,
    /** Overviews answered before (zones/overview-cache.ts); none without notifications. */
    private readonly overviews?: { cache: HeardCache<Zone>; notifications: Notifications },
  ) {}

  async list(actor: Actor, path: BuildingPath, query: ListQuery) {
    requireSiteRead(actor, path.customerId, path.siteId);
    await requireBuildingRow(this.ctx.db, path);
    const { items, total } = await listZones(this.ctx.db, path, query);
    return { items: items.map((zone) => zoneAnswerFor(actor, zone)), total };
  }

  /** Every zone the actor may see in a customer; asking for a site it may not read is refused. */
  async directory(actor: Actor, customerId: string, query: ZoneDirectoryQuery) {
    requireCustomerList(actor, customerId);
    // An end user lists its own zones; it names no site (it reads none as a whole).
    if (query.site_id) requireSiteRead(actor, customerId, query.site_id);
    const zoneIds = zoneFilterFor(actor);
    await requireCustomerRow(this.ctx.db, customerId);
    const siteIds = zoneIds === 'all' ? siteFilterFor(actor) : 'all';
    return listCustomerZones(this.ctx.db, customerId, siteIds, query, zoneIds);
  }

  /** Overviews answered from this instance's cache (tests, `/metrics`). */
  get overviewHits(): number {
    return this.overviews?.cache.hits ?? 0;
  }

  /** `heardMark`: the request's (http/types.ts), when the caller has it. */
  async info(actor: Actor, path: ZonePath, heardMark?: number): Promise<Zone> {
    requireZoneRead(actor, path);
    return zoneAnswerFor(actor, await this.overview(path, heardMark));
  }

  /** The zone's overview as its managers read it, from this instance's cache when it may be. */
  private async overview(path: ZonePath, heardMark?: number): Promise<Zone> {
    const overviews = this.overviews;
    if (!overviews) {
      const zone = await findZone(this.ctx.db, path);
      if (!zone) throw notFound();
      return zone;
    }
    const { cache, notifications } = overviews;
    const seen = cache.get(path.zoneId);
    // Remembered: once every change committed before this request has been heard, it still is.
    if (seen && isAt(seen, path) && (await heardEverything(notifications, heardMark))) {
      const known = cache.get(path.zoneId);
      if (known && isAt(known, path)) {
        cache.hits++;
        return known;
      }
    }
    cache.misses++;
    const version = cache.version;
    const zone = await findZone(this.ctx.db, path);
    if (!zone) throw notFound();
    cache.remember(zone.id, frozen(zone), [zone.building_id, zone.site_id], version);
    return zone;
  }

  async create(actor: Actor, path: BuildingPath, input: z.output<typeof ZoneCreateSchema>): Promise<Zone> {
    requireZoneWrite(actor, path, input);
    await requireBuildingRow(this.ctx.db, path);
    await this.requireFloorOf(path, input.floor_id);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertZone(tx, { ...valuesOf(input), buildingId: path.buildingId } as NewZoneRow);
      await this.record(tx, actor, path, 'created', created, []);
      return created;
    });
    return this.info(actor, { ...path, zoneId: row.id });
  }

  async update(actor: Actor, path: ZonePath, input: UpdateInput): Promise<Zone> {
    requireZoneUpdate(actor, path, input);
    await this.find(path);
    await this.requireFloorOf(path, input.floor_id);
    await this.ctx.db.transaction(async (tx) => {
      const updated = await updateZone(tx, path.zoneId, valuesOf(input));
      await this.record(tx, actor, path, 'updated', updated, changedFieldsOf(input));
    });
    return this.info(actor, path);
  }

  /**
   * Deletes the zone with its water points and flowboxes, whose devices lose the broker
   * (docs/hierarchy.md).
   */
  async remove(actor: Actor, path: ZonePath, confirmName: string): Promise<void> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const zone = await this.find(path);
    if (!typedNameMatches(confirmName, zone.name)) throw namesMismatch();
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await this.removeBelow(tx, { zoneId: zone.id }, actor, this.ctx.now());
      await deleteZone(tx, zone.id);
      await this.record(tx, actor, path, 'deleted', zone, []);
      return serials;
    });
    this.link.disconnectAll(retired);
  }

  private record(
    db: Db,
    actor: Actor,
    path: BuildingPath,
    action: EventAction,
    zone: ZoneRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'zone',
      objectId: zone.id,
      objectLabel: zone.name,
      scope: {
        customerId: path.customerId,
        siteId: path.siteId,
        buildingId: path.buildingId,
        zoneId: zone.id,
      },
      changedFields,
    });
  }

  private async find(path: ZonePath): Promise<ZoneRow> {
    const row = await findZoneRow(this.ctx.db, path);
    if (!row) throw notFound();
    return row;
  }

  /** A zone lies on a floor of its own building, or on none. */
  private async requireFloorOf(path: BuildingPath, floorId: string | null | undefined): Promise<void> {
    if (!floorId) return;
    if (!(await findFloor(this.ctx.db, path.buildingId, floorId)))
      throw new AppError('errors.validation', {}, [{ path: 'floor_id', message: 'validation.select' }]);
  }
}

function valuesOf(input: UpdateInput): Partial<NewZoneRow> {
  const values: Partial<NewZoneRow> = {
    name: input.name,
    floorId: input.floor_id,
    profile: input.profile,
    openingHours: input.opening_hours,
    pricePerUnit: input.price_per_unit,
    occupants: input.occupants,
    waterPointNumber: input.water_point_number,
    scheduledClosingAuthorised: input.scheduled_closing_authorised,
    leakDetectionMode: input.leak_detection_mode,
    maintenanceMode: input.maintenance_mode,
    flowboxModel: input.flowbox_model,
    waterTemperature: input.water_temperature,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
