import { typedNameMatches } from '@flowbox/shared';
import type { EventAction, Floor, FloorCreateSchema, FloorUpdateSchema, ListQuery } from '@flowbox/shared';
import type { z } from 'zod';
import { requireSiteManage, requireSiteRead, type Actor } from '../access/access.ts';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import { namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import type { BuildingPath, FloorPath } from '../http/params.ts';
import { requireBuildingRow } from './buildings.repo.ts';
import {
  deleteFloor,
  findFloor,
  insertFloor,
  listFloors,
  pairedFlowboxesOn,
  toApiFloor,
  updateFloor,
  type FloorRow,
  type NewFloorRow,
} from './floors.repo.ts';

type UpdateInput = z.output<typeof FloorUpdateSchema>;

/** Floors of a building (spec §3), under the same rules as the building. */
export class FloorsService {
  constructor(private readonly ctx: Context) {}

  async list(actor: Actor, path: BuildingPath, query: ListQuery) {
    requireSiteRead(actor, path.customerId, path.siteId);
    await requireBuildingRow(this.ctx.db, path);
    return listFloors(this.ctx.db, path.buildingId, query);
  }

  async create(actor: Actor, path: BuildingPath, input: z.output<typeof FloorCreateSchema>): Promise<Floor> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await requireBuildingRow(this.ctx.db, path);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertFloor(tx, {
        ...valuesOf(input),
        buildingId: path.buildingId,
      } as NewFloorRow);
      await this.record(tx, actor, path, 'created', created, []);
      return created;
    });
    // A new floor has no flowbox yet: one is placed on it when it is paired.
    return toApiFloor(row, []);
  }

  async update(actor: Actor, path: FloorPath, input: UpdateInput): Promise<Floor> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    await this.find(path);
    const row = await this.ctx.db.transaction(async (tx) => {
      const updated = await updateFloor(tx, path.floorId, valuesOf(input));
      await this.record(tx, actor, path, 'updated', updated, changedFieldsOf(input));
      return updated;
    });
    const paired = await pairedFlowboxesOn(this.ctx.db, [row.id]);
    return toApiFloor(row, paired.get(row.id) ?? []);
  }

  /** Its zones are detached from it and stay in the building (docs/hierarchy.md). */
  async remove(actor: Actor, path: FloorPath, confirmName: string): Promise<void> {
    requireSiteManage(actor, path.customerId, path.siteId, 'buildings.manage');
    const floor = await this.find(path);
    if (!typedNameMatches(confirmName, floor.label)) throw namesMismatch();
    await this.ctx.db.transaction(async (tx) => {
      await deleteFloor(tx, floor.id);
      await this.record(tx, actor, path, 'deleted', floor, []);
    });
  }

  private record(
    db: Db,
    actor: Actor,
    path: BuildingPath,
    action: EventAction,
    floor: FloorRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'floor',
      objectId: floor.id,
      objectLabel: floor.label,
      scope: { customerId: path.customerId, siteId: path.siteId, buildingId: path.buildingId },
      changedFields,
    });
  }

  private async find(path: FloorPath): Promise<FloorRow> {
    await requireBuildingRow(this.ctx.db, path);
    const row = await findFloor(this.ctx.db, path.buildingId, path.floorId);
    if (!row) throw notFound();
    return row;
  }
}

function valuesOf(input: UpdateInput): Partial<NewFloorRow> {
  const values: Partial<NewFloorRow> = { label: input.label, occupants: input.occupants };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
