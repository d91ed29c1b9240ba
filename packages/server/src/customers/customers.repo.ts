import { asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { Customer } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { escapeLike } from '../db/values.ts';
import { customers } from '../db/schema.ts';
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
  return { items: rows.map((r) => toApiCustomer(r.customer, r.siteCount)), total: totalRow?.total ?? 0 };
}

export async function findCustomer(db: Db, id: string): Promise<Customer | undefined> {
  const [row] = await db
    .select({ customer: customers, siteCount })
    .from(customers)
    .where(eq(customers.id, id));
  return row ? toApiCustomer(row.customer, row.siteCount) : undefined;
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

function toApiCustomer(row: CustomerRow, sitesCount: number): Customer {
  return {
    id: row.id,
    name: row.name,
    logo: row.logo,
    operations_contact: row.operationsContact,
    technical_contact: row.technicalContact,
    administrative_contact: row.administrativeContact,
    subscription_date: row.subscriptionDate,
    // Flowboxes arrive with the devices issue (#4); until then no customer has one.
    flowbox_count: 0,
    site_count: Number(sitesCount),
    created_at: row.createdAt.toISOString(),
  };
}

/** A call under an unknown customer is 404, like any unknown id (checked after the scope check). */
export async function requireCustomerRow(db: Db, customerId: string): Promise<void> {
  const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
  if (!row) throw notFound();
}
