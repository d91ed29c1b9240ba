import {
  type EventAction,
  type MapSettings,
  type Plumber,
  type PlumberCreateInput,
  type PlumberListQuery,
  type PlumberUpdateInput,
  type NearestPlumbers,
  type SiteMap,
  typedNameMatches,
} from '@flowbox/shared';
import {
  canReadPlumbersOf,
  isProvider,
  plumberDirectoryFor,
  requireCustomerRead,
  requireManager,
  requirePlumbersManage,
  requireSiteRead,
  type Actor,
  placeScopeOf,
  unknownTo,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import { requireCustomerRow } from '../customers/index.ts';
import type { Db } from '../db/client.ts';
import { findSiteRow } from '../sites/index.ts';
import { forbidden, namesMismatch, notFound } from '../errors.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import {
  deletePlumber,
  findPlumber,
  findPlumberRow,
  insertPlumber,
  listPlumbers,
  nearestPlumbers,
  siteLocation,
  siteMap,
  toApiPlumber,
  updatePlumber,
  type PlumberRow,
  type PlumberValues,
} from './plumbers.repo.ts';

/** OpenStreetMap's own tile server, the default of MAP_TILE_URL (docs/operations.md "Maps"). */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
/** Text, its links written [label](https://…): the web app never reads a credit as HTML (issue 30). */
export const DEFAULT_MAP_ATTRIBUTION =
  '© [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors';

/**
 * The plumber directory and the maps (docs/maps.md): a customer's entries and the provider's
 * shared ones, the nearest of them to a site, and the sites with their state.
 */
export class PlumbersService {
  constructor(
    private readonly ctx: Context,
    private readonly map: { tileUrl?: string; attribution?: string } = {},
  ) {}

  mapSettings(actor: Actor): MapSettings {
    requireManager(actor);
    return {
      tile_url: this.map.tileUrl ?? DEFAULT_MAP_TILE_URL,
      attribution: this.map.attribution ?? DEFAULT_MAP_ATTRIBUTION,
    };
  }

  /** A provider manager sees every entry (or one customer's view); any other manager its customer's view. */
  async list(actor: Actor, query: PlumberListQuery) {
    const directory = plumberDirectoryFor(actor, query.customer_id);
    if (isProvider(actor) && query.customer_id) await requireCustomerRow(this.ctx.db, query.customer_id);
    return listPlumbers(this.ctx.db, directory, query);
  }

  async info(actor: Actor, id: string): Promise<Plumber> {
    const row = await this.readable(actor, id);
    return (await findPlumber(this.ctx.db, row.id))!;
  }

  async create(actor: Actor, input: PlumberCreateInput): Promise<Plumber> {
    const customerId = input.customer_id ?? null;
    requirePlumbersManage(actor, customerId);
    if (customerId !== null) await requireCustomerRow(this.ctx.db, customerId);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertPlumber(tx, {
        ...valuesOf(input),
        company: input.company.trim(),
        customerId,
      });
      await this.record(tx, actor, 'created', created, []);
      return created;
    });
    return (await findPlumber(this.ctx.db, row.id)) ?? toApiPlumber(row, null);
  }

  async update(actor: Actor, id: string, input: PlumberUpdateInput): Promise<Plumber> {
    const existing = await this.readable(actor, id);
    requirePlumbersManage(actor, existing.customerId);
    const values = valuesOf(input);
    await this.ctx.db.transaction(async (tx) => {
      const updated = await updatePlumber(tx, id, values);
      await this.record(tx, actor, 'updated', updated, changedFieldsOf(input));
    });
    return (await findPlumber(this.ctx.db, id))!;
  }

  async remove(actor: Actor, id: string, confirmName: string): Promise<void> {
    const existing = await this.readable(actor, id);
    requirePlumbersManage(actor, existing.customerId);
    if (!typedNameMatches(confirmName, existing.company)) throw namesMismatch();
    await this.ctx.db.transaction(async (tx) => {
      await deletePlumber(tx, id);
      await this.record(tx, actor, 'deleted', existing, []);
    });
  }

  /** The entries the site's customer sees, nearest to the site first, with those that come that far. */
  async nearest(actor: Actor, customerId: string, siteId: string, limit: number): Promise<NearestPlumbers> {
    requireManager(actor);
    requireSiteRead(actor, customerId, siteId);
    if (!(await findSiteRow(this.ctx.db, customerId, siteId))) throw notFound();
    const at = await siteLocation(this.ctx.db, siteId);
    if (!at) return { site: null, items: [] };
    return { site: at, items: await nearestPlumbers(this.ctx.db, customerId, at, limit) };
  }

  /** The sites the caller sees, with their open alerts, offline flowboxes and closed valves. */
  async sites(actor: Actor, customerId: string | undefined): Promise<SiteMap> {
    requireManager(actor);
    if (customerId !== undefined) {
      requireCustomerRead(actor, customerId);
      await requireCustomerRow(this.ctx.db, customerId);
    }
    if (isProvider(actor)) return siteMap(this.ctx.db, { customerId });
    const { customerId: own, siteIds } = placeScopeOf(actor);
    return siteMap(this.ctx.db, { customerId: own, siteIds });
  }

  /** The entry, when the caller may read it; otherwise the same refusal whether or not it exists. */
  private async readable(actor: Actor, id: string): Promise<PlumberRow> {
    const row = await findPlumberRow(this.ctx.db, id);
    if (!row) throw unknownTo(actor);
    if (!canReadPlumbersOf(actor, row.customerId)) throw forbidden();
    return row;
  }

  private record(
    db: Db,
    actor: Actor,
    action: EventAction,
    row: PlumberRow,
    changedFields: string[],
  ): Promise<void> {
    return recordChange(db, this.ctx.now(), actor, {
      action,
      object: 'plumber_entry',
      objectId: row.id,
      objectLabel: row.company,
      scope: { customerId: row.customerId },
      changedFields,
    });
  }
}

function valuesOf(input: PlumberUpdateInput): PlumberValues {
  const values: PlumberValues = {
    company: input.company,
    contactName: input.contact_name,
    phone: input.phone,
    email: input.email,
    address: input.address,
    latitude: input.latitude,
    longitude: input.longitude,
    serviceRadiusKm: input.service_radius_km,
    specialities: input.specialities,
    availability: input.availability,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as PlumberValues;
}
