import { typedNameMatches } from '@flowbox/shared';
import type {
  EventAction,
  ListQuery,
  WaterPoint,
  WaterPointCreateSchema,
  WaterPointUpdateSchema,
} from '@flowbox/shared';
import type { z } from 'zod';
import { requireSiteManage, requireZoneRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import type { WaterPointPath, ZonePath } from '../http/params.ts';
import {
  deleteWaterPoint,
  findWaterPoint,
  insertWaterPoint,
  listWaterPoints,
  toApiWaterPoint,
  updateWaterPoint,
  type NewWaterPointRow,
  type WaterPointRow,
} from './water-points.repo.ts';
import { findZoneRow } from './zones.repo.ts';

type UpdateInput = z.output<typeof WaterPointUpdateSchema>;

/** Water points of a zone (spec §3), under the same rules as the zone's building. */
export class WaterPointsService {
  constructor(private readonly ctx: Context) {}

  async list(actor: Actor, path: ZonePath, query: ListQuery) {
    requireZoneRead(actor, path);
    await this.requireZone(path);
    return listWaterPoints(this.ctx.db, path.zoneId, query);
  }

  async create(
    actor: Actor,
    path: ZonePath,
    input: z.output<typeof WaterPointCreateSchema>,
  ): Promise<WaterPoint> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await this.requireZone(path);
    const row = await this.ctx.db.transaction(async (tx) => {
      const values = { ...valuesOf(input), zoneId: path.zoneId } as NewWaterPointRow;
      const created = await insertWaterPoint(tx, values);
      await this.record(tx, actor, path, 'created', created, []);
      return created;
    });
    return toApiWaterPoint(row);
  }

  async update(actor: Actor, path: WaterPointPath, input: UpdateInput): Promise<WaterPoint> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await this.find(path);
    const row = await this.ctx.db.transaction(async (tx) => {
      const updated = await updateWaterPoint(tx, path.waterPointId, valuesOf(input));
      await this.record(tx, actor, path, 'updated', updated, changedFieldsOf(input));
      return updated;
    });
    return toApiWaterPoint(row);
  }

  async remove(actor: Actor, path: WaterPointPath, confirmName: string): Promise<void> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const point = await this.find(path);
    if (!typedNameMatches(confirmName, point.label)) throw namesMismatch();
    await this.ctx.db.transaction(async (tx) => {
      await deleteWaterPoint(tx, point.id);
      await this.record(tx, actor, path, 'deleted', point, []);
    });
  }

  private record(
    db: Db,
    actor: Actor,
    path: ZonePath,
    action: EventAction,
    point: WaterPointRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'water_point',
      objectId: point.id,
      objectLabel: point.label,
      scope: {
        customerId: path.customerId,
        siteId: path.siteId,
        buildingId: path.buildingId,
        zoneId: path.zoneId,
      },
      changedFields,
    });
  }

  private async find(path: WaterPointPath): Promise<WaterPointRow> {
    await this.requireZone(path);
    const row = await findWaterPoint(this.ctx.db, path.zoneId, path.waterPointId);
    if (!row) throw notFound();
    return row;
  }

  private async requireZone(path: ZonePath): Promise<void> {
    if (!(await findZoneRow(this.ctx.db, path))) throw notFound();
  }
}

function valuesOf(input: UpdateInput): Partial<NewWaterPointRow> {
  const values: Partial<NewWaterPointRow> = {
    label: input.label,
    type: input.type,
    location: input.location === '' ? null : input.location,
    nominalFlowLpm: input.nominal_flow_lpm,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
