import type { Plumber, PlumberListQuery, PlumberSpeciality, SiteMapItem } from '@flowbox/shared';
import { SITE_MAP_LIMIT } from '@flowbox/shared';
import { and, asc, count, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { joinUpSql } from '../db/scope.ts';
import { customers, plumbers, sites } from '../db/schema.ts';
import { escapeLike } from '../db/values.ts';

export type PlumberRow = typeof plumbers.$inferSelect;
export type PlumberValues = Partial<Omit<typeof plumbers.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>>;

/**
 * Whose entries a caller may see: every entry (a provider manager choosing no customer), or one
 * customer's own with the shared ones.
 */
export type PlumberVisibility = { customerId: string | null; all: boolean };

function visibleTo(v: PlumberVisibility): SQL | undefined {
  if (v.all) return undefined;
  if (v.customerId === null) return isNull(plumbers.customerId);
  return or(eq(plumbers.customerId, v.customerId), isNull(plumbers.customerId));
}

const columns = { plumber: plumbers, customerName: customers.name };

export async function listPlumbers(db: Db, visibility: PlumberVisibility, query: PlumberListQuery) {
  const conditions: (SQL | undefined)[] = [visibleTo(visibility)];
  if (query.owner === 'shared') conditions.push(isNull(plumbers.customerId));
  if (query.owner === 'customer') conditions.push(isNotNull(plumbers.customerId));
  if (query.located === 'true') conditions.push(isNotNull(plumbers.latitude));
  if (query.located === 'false') conditions.push(isNull(plumbers.latitude));
  if (query.speciality)
    conditions.push(sql`${plumbers.specialities} @> ${JSON.stringify([query.speciality])}::jsonb`);
  if (query.search) {
    const like = `%${escapeLike(query.search)}%`;
    conditions.push(
      or(
        ilike(plumbers.company, like),
        ilike(plumbers.contactName, like),
        ilike(plumbers.address, like),
        ilike(plumbers.email, like),
        ilike(plumbers.phone, like),
      ),
    );
  }
  const where = and(...conditions);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(columns)
      .from(plumbers)
      .leftJoin(customers, eq(customers.id, plumbers.customerId))
      .where(where)
      .orderBy(asc(plumbers.company), asc(plumbers.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(plumbers).where(where),
  ]);
  return { items: rows.map((r) => toApiPlumber(r.plumber, r.customerName)), total: totalRow?.total ?? 0 };
}

export async function findPlumber(db: Db, id: string): Promise<Plumber | undefined> {
  const [row] = await db
    .select(columns)
    .from(plumbers)
    .leftJoin(customers, eq(customers.id, plumbers.customerId))
    .where(eq(plumbers.id, id));
  return row ? toApiPlumber(row.plumber, row.customerName) : undefined;
}

export async function findPlumberRow(db: Db, id: string): Promise<PlumberRow | undefined> {
  const [row] = await db.select().from(plumbers).where(eq(plumbers.id, id));
  return row;
}

export async function insertPlumber(
  db: Db,
  values: PlumberValues & { company: string; customerId: string | null },
): Promise<PlumberRow> {
  const [row] = await db.insert(plumbers).values(values).returning();
  return row!;
}

export async function updatePlumber(db: Db, id: string, values: PlumberValues): Promise<PlumberRow> {
  const [row] = await db
    .update(plumbers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(plumbers.id, id))
    .returning();
  return row!;
}

export async function deletePlumber(db: Db, id: string): Promise<void> {
  await db.delete(plumbers).where(eq(plumbers.id, id));
}

/**
 * Where a site is: its own coordinates, else the centre of its buildings that have some. Columns
 * are spelled out: inside a raw subquery drizzle would leave them unqualified.
 */
export async function siteLocation(
  db: Db,
  siteId: string,
): Promise<{ latitude: number; longitude: number } | null> {
  const [row] = await db
    .select({
      latitude: sql<
        number | null
      >`coalesce(${sites.latitude}, (SELECT avg(b.latitude) FROM buildings AS b WHERE b.site_id = "sites"."id" AND b.latitude IS NOT NULL))`,
      longitude: sql<
        number | null
      >`coalesce(${sites.longitude}, (SELECT avg(b.longitude) FROM buildings AS b WHERE b.site_id = "sites"."id" AND b.longitude IS NOT NULL))`,
    })
    .from(sites)
    .where(eq(sites.id, siteId));
  if (!row || row.latitude === null || row.longitude === null) return null;
  return { latitude: Number(row.latitude), longitude: Number(row.longitude) };
}

/**
 * The located entries a customer sees, nearest first: great-circle distance (haversine, km) in
 * SQL, so the answer is `limit` rows however large the directory.
 */
export async function nearestPlumbers(
  db: Db,
  customerId: string,
  at: { latitude: number; longitude: number },
  limit: number,
) {
  // Coordinates to 1e-7 degree (about a centimetre) on both sides: PostgreSQL refuses a float that
  // underflows (`value out of range: underflow`), which squaring the sine of a difference of a few
  // 1e-158 degrees does; rounded, a difference is either 0 or large enough.
  const round7 = (value: number) => Math.round(value * 1e7) / 1e7;
  const [lat, lng] = [round7(at.latitude), round7(at.longitude)];
  const plumberLat = sql`round(${plumbers.latitude}::numeric, 7)::float8`;
  const plumberLng = sql`round(${plumbers.longitude}::numeric, 7)::float8`;
  const distance = sql<number>`(12742 * asin(least(1, sqrt(
    power(sin(radians(${plumberLat} - ${lat}::float8) / 2), 2)
    + cos(radians(${lat}::float8)) * cos(radians(${plumberLat}))
      * power(sin(radians(${plumberLng} - ${lng}::float8) / 2), 2)))))`;
  const rows = await db
    .select({ ...columns, distance })
    .from(plumbers)
    .leftJoin(customers, eq(customers.id, plumbers.customerId))
    .where(
      and(visibleTo({ customerId, all: false }), isNotNull(plumbers.latitude), isNotNull(plumbers.longitude)),
    )
    .orderBy(asc(distance), asc(plumbers.company), asc(plumbers.id))
    .limit(limit);
  return rows.map((r) => {
    const distanceKm = Number(r.distance);
    const radius = r.plumber.serviceRadiusKm;
    return {
      ...toApiPlumber(r.plumber, r.customerName),
      distance_km: Math.round(distanceKm * 10) / 10,
      covers_site: radius !== null && distanceKm <= radius,
    };
  });
}

/**
 * The sites a caller sees with their state, in one statement: the sites (at most SITE_MAP_LIMIT,
 * one more to tell there are more), then their not-resolved alerts and their paired flowboxes
 * offline or with the valve closed, counted per site over those sites only.
 */
export async function siteMap(
  db: Db,
  filter: { customerId?: string; siteIds?: string[] },
): Promise<{ items: SiteMapItem[]; truncated: boolean }> {
  const conditions: SQL[] = [sql`TRUE`];
  if (filter.customerId) conditions.push(sql`s.customer_id = ${filter.customerId}`);
  if (filter.siteIds) {
    if (filter.siteIds.length === 0) return { items: [], truncated: false };
    conditions.push(sql`s.id = ANY(${`{${filter.siteIds.join(',')}}`}::uuid[])`);
  }
  const result = await db.execute(sql`
    WITH visible AS (
      SELECT s.id, s.customer_id, c.name AS customer_name, s.name, s.latitude, s.longitude
      FROM ${sites} AS s ${joinUpSql('site', 'customer')}
      WHERE ${sql.join(conditions, sql` AND `)}
      ORDER BY c.name, s.name, s.id
      LIMIT ${SITE_MAP_LIMIT + 1}
    ),
    alert_counts AS (
      SELECT a.site_id, count(*)::int AS n FROM alerts AS a
      WHERE a.state <> 'resolved' AND a.site_id IN (SELECT id FROM visible)
      GROUP BY a.site_id
    ),
    device_counts AS (
      SELECT b.site_id,
        count(*) FILTER (WHERE NOT f.connected)::int AS offline,
        count(*) FILTER (WHERE f.valve = 'closed')::int AS closed
      FROM flowboxes AS f ${joinUpSql('flowbox', 'building')}
      WHERE b.site_id IN (SELECT id FROM visible)
      GROUP BY b.site_id
    )
    SELECT v.*, coalesce(a.n, 0) AS open_alerts, coalesce(d.offline, 0) AS offline,
      coalesce(d.closed, 0) AS closed
    FROM visible AS v
    LEFT JOIN alert_counts AS a ON a.site_id = v.id
    LEFT JOIN device_counts AS d ON d.site_id = v.id
    ORDER BY v.customer_name, v.name, v.id
  `);
  const rows = (result as unknown as { rows: Record<string, unknown>[] }).rows;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const items = rows.slice(0, SITE_MAP_LIMIT).map((r) => ({
    id: String(r.id),
    customer_id: String(r.customer_id),
    customer_name: String(r.customer_name),
    name: String(r.name),
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    open_alerts: Number(r.open_alerts),
    offline_flowboxes: Number(r.offline),
    closed_valves: Number(r.closed),
  }));
  return { items, truncated: rows.length > SITE_MAP_LIMIT };
}

export function toApiPlumber(row: PlumberRow, customerName: string | null): Plumber {
  return {
    id: row.id,
    customer_id: row.customerId,
    customer_name: customerName,
    company: row.company,
    contact_name: row.contactName,
    phone: row.phone,
    email: row.email,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    service_radius_km: row.serviceRadiusKm,
    specialities: row.specialities as PlumberSpeciality[],
    availability: row.availability,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
