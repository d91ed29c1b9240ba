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
  requireCustomerRead,
  requirePermission,
  requireSiteManage,
  requireSiteRead,
  siteFilterFor,
  type Actor,
} from '../access/access.ts';
import { requireBuildingRow, findFloor } from '../buildings/index.ts';
import type { Context } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import type { Db } from '../db/client.ts';
import { AppError, namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import { retireFlowboxesUnder } from '../flowboxes/index.ts';
import type { BuildingPath, ZonePath } from '../http/params.ts';
import type { DeviceLink } from '../devices/index.ts';
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

type UpdateInput = z.output<typeof ZoneUpdateSchema>;

/** Zones of a building (spec §3): read like their site, managed with `buildings.manage`. */
export class ZonesService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
  ) {}

  async list(actor: Actor, path: BuildingPath, query: ListQuery) {
    requireSiteRead(actor, path.customerId, path.siteId);
    await requireBuildingRow(this.ctx.db, path);
    return listZones(this.ctx.db, path, query);
  }

  /** Every zone the actor may see in a customer; asking for a site it may not read is refused. */
  async directory(actor: Actor, customerId: string, query: ZoneDirectoryQuery) {
    requireCustomerRead(actor, customerId);
    if (query.site_id) requireSiteRead(actor, customerId, query.site_id);
    await requireCustomerRow(this.ctx.db, customerId);
    return listCustomerZones(this.ctx.db, customerId, siteFilterFor(actor), query);
  }

  async info(actor: Actor, path: ZonePath): Promise<Zone> {
    requireSiteRead(actor, path.customerId, path.siteId);
    const zone = await findZone(this.ctx.db, path);
    if (!zone) throw notFound();
    return zone;
  }

  async create(actor: Actor, path: BuildingPath, input: z.output<typeof ZoneCreateSchema>): Promise<Zone> {
    this.requireManage(actor, path, input);
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
    this.requireManage(actor, path, input);
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
    if (confirmName.trim() !== zone.name) throw namesMismatch();
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await retireFlowboxesUnder(tx, { zoneId: zone.id }, actor, this.ctx.now());
      await deleteZone(tx, zone.id);
      await this.record(tx, actor, path, 'deleted', zone, []);
      return serials;
    });
    this.link.disconnectAll(retired);
  }

  /** Maintenance and leak-detection modes are valve actions (docs/permissions.md: `valves.control`). */
  private requireManage(actor: Actor, path: BuildingPath, input: UpdateInput): void {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    if (input.maintenance_mode !== undefined || input.leak_detection_mode !== undefined)
      requirePermission(actor, 'valves.control');
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
