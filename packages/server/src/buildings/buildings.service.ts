import {
  DEFAULT_WEEKEND,
  type Building,
  type BuildingCreateSchema,
  type BuildingUpdateSchema,
  type EventAction,
  type ListQuery,
  typedNameMatches,
} from '@flowbox/shared';
import type { z } from 'zod';
import { buildingAnswerFor, requireSiteManage, requireSiteRead, type Actor } from '../access/access.ts';
import type { Context, RemoveBelow } from '../context.ts';
import type { Db } from '../db/client.ts';
import { namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import type { BuildingPath, SitePath } from '../http/params.ts';
import type { DeviceLink } from '../devices/index.ts';
import {
  deleteBuilding,
  findBuilding,
  findBuildingRow,
  insertBuilding,
  listBuildings,
  siteExists,
  updateBuilding,
  type BuildingRow,
  type NewBuildingRow,
} from './buildings.repo.ts';

type CreateInput = z.output<typeof BuildingCreateSchema>;
type UpdateInput = z.output<typeof BuildingUpdateSchema>;

/** Buildings of a site (spec §3): read like their site, managed with `buildings.manage`. */
export class BuildingsService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
    /** The flowboxes and images below, retired and deleted by their domains (composed in app.ts). */
    private readonly removeBelow: RemoveBelow,
  ) {}

  async list(actor: Actor, path: SitePath, query: ListQuery) {
    requireSiteRead(actor, path.customerId, path.siteId);
    await this.requireSite(path);
    const { items, total } = await listBuildings(this.ctx.db, path.customerId, path.siteId, query);
    return { items: items.map((building) => buildingAnswerFor(actor, building)), total };
  }

  async info(actor: Actor, path: BuildingPath): Promise<Building> {
    requireSiteRead(actor, path.customerId, path.siteId);
    const building = await findBuilding(this.ctx.db, path);
    if (!building) throw notFound();
    return buildingAnswerFor(actor, building);
  }

  async create(actor: Actor, path: SitePath, input: CreateInput): Promise<Building> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await this.requireSite(path);
    const values = { ...valuesOf(input), siteId: path.siteId, weekend: input.weekend ?? DEFAULT_WEEKEND };
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertBuilding(tx, values as NewBuildingRow);
      await this.record(tx, actor, path.customerId, 'created', created, []);
      return created;
    });
    return this.info(actor, { ...path, buildingId: row.id });
  }

  async update(actor: Actor, path: BuildingPath, input: UpdateInput): Promise<Building> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await this.find(path);
    await this.ctx.db.transaction(async (tx) => {
      const updated = await updateBuilding(tx, path.buildingId, valuesOf(input));
      await this.record(tx, actor, path.customerId, 'updated', updated, changedFieldsOf(input));
    });
    return this.info(actor, path);
  }

  /**
   * Deletes the building with its floors, zones, water points, flowboxes and images; the devices
   * lose the broker (docs/hierarchy.md).
   */
  async remove(actor: Actor, path: BuildingPath, confirmName: string): Promise<void> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const building = await this.find(path);
    if (!typedNameMatches(confirmName, building.name)) throw namesMismatch();
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await this.removeBelow(tx, { buildingId: building.id }, actor, this.ctx.now());
      await deleteBuilding(tx, building.id);
      await this.record(tx, actor, path.customerId, 'deleted', building, []);
      return serials;
    });
    this.link.disconnectAll(retired);
  }

  private record(
    db: Db,
    actor: Actor,
    customerId: string,
    action: EventAction,
    building: BuildingRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'building',
      objectId: building.id,
      objectLabel: building.name,
      scope: { customerId, siteId: building.siteId, buildingId: building.id },
      changedFields,
    });
  }

  private async find(path: BuildingPath): Promise<BuildingRow> {
    const row = await findBuildingRow(this.ctx.db, path);
    if (!row) throw notFound();
    return row;
  }

  private async requireSite(path: SitePath): Promise<void> {
    if (!(await siteExists(this.ctx.db, path.customerId, path.siteId))) throw notFound();
  }
}

function valuesOf(input: UpdateInput): Partial<NewBuildingRow> {
  const values: Partial<NewBuildingRow> = {
    name: input.name,
    type: input.type,
    address: input.address,
    city: input.city,
    zipCode: input.zipCode,
    country: input.country,
    nbfloor: input.nbfloor,
    occupants: input.occupants,
    nbequipment: input.nbequipment,
    openingHours: input.opening_hours,
    timezone: input.timezone,
    volumeUnit: input.volume_unit,
    currency: input.currency,
    firstDayOfWeek: input.first_day_of_week,
    weekend: input.weekend,
    pricePerUnit: input.price_per_unit,
    latitude: input.latitude,
    longitude: input.longitude,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
