import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Customer } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/values.ts';
import { customers, flowboxes, sites } from '../db/schema.ts';
import { withZoneScopeOf } from '../db/scope.ts';
import { notFound } from '../errors.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;

// Columns are spelled out: inside a raw subquery drizzle would leave them unqualified.
const siteCount = sql<number>`(SELECT count(*)::int FROM sites AS s WHERE s.customer_id = "customers"."id")`;

export async function listCustomers(db: Db, query: { search?: string; limit: number; offset: number }) {
  const where = query.search ? ilike(customers.name, `%${escapeLike(query.search)}%`) : undefined;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select({ customer: customers, siteCount })
      .from(customers)
      .where(where)
      .orderBy(asc(customers.name), asc(customers.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ total: count() }).from(customers).where(where),
  ]);
  const flowboxCounts = await pairedFlowboxCounts(
    db,
    rows.map((r) => r.customer.id),
  );
  return {
    items: rows.map((r) => toApiCustomer(r.customer, r.siteCount, flowboxCounts.get(r.customer.id) ?? 0)),
    total: totalRow?.total ?? 0,
  };
}

/**
 * The paired flowboxes (pairing finished, spec §4) under each of these customers' zones, in one
 * grouped query for a whole page: it starts from the customers' own sites (sites_customer_idx) and
 * walks down the hierarchy's indexes, so other customers' flowboxes are never read.
 */
export async function pairedFlowboxCounts(
  db: Db,
  customerIds: readonly string[],
): Promise<Map<string, number>> {
  if (customerIds.length === 0) return new Map();
  const rows = await withZoneScopeOf(
    db.select({ customerId: sites.customerId, count: count() }).from(flowboxes),
    flowboxes.zoneId,
  )
    .where(and(inArray(sites.customerId, [...customerIds]), eq(flowboxes.pairingState, 'ready')))
    .groupBy(sites.customerId);
  return new Map(rows.map((r) => [r.customerId, Number(r.count)]));
}

export async function findCustomer(db: Db, id: string): Promise<Customer | undefined> {
  const [row] = await db
    .select({ customer: customers, siteCount })
    .from(customers)
    .where(eq(customers.id, id));
  if (!row) return undefined;
  const flowboxCounts = await pairedFlowboxCounts(db, [id]);
  return toApiCustomer(row.customer, row.siteCount, flowboxCounts.get(id) ?? 0);
}

export async function insertCustomer(db: Db, values: NewCustomerRow): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(values).returning();
  return row!;
}

export async function updateCustomer(db: Db, id: string, patch: Partial<NewCustomerRow>): Promise<void> {
  await db
    .update(customers)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(customers.id, id));
}

/** Sites, their managers' assignments and the customer's managers go with it (foreign keys cascade). */
export async function deleteCustomer(db: Db, id: string): Promise<void> {
  await db.delete(customers).where(eq(customers.id, id));
}

function toApiCustomer(row: CustomerRow, sitesCount: number, flowboxCount: number): Customer {
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    operations_contact: row.operationsContact,
    technical_contact: row.technicalContact,
    administrative_contact: row.administrativeContact,
    subscription_date: row.subscriptionDate,
    flowbox_count: flowboxCount,
    site_count: Number(sitesCount),
    created_at: row.createdAt.toISOString(),
  };
}

/** A call under an unknown customer is 404, like any unknown id (checked after the scope check). */
export async function requireCustomerRow(db: Db, customerId: string): Promise<void> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  if (!row) throw notFound();
}
