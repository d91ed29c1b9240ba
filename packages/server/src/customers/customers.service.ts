import {
  ROLES,
  type Customer,
  type CustomerCreateSchema,
  type CustomerUpdateSchema,
  type ListQuery,
  typedNameMatches,
} from '@flowbox/shared';
import type { z } from 'zod';
import { isProvider, requireCustomerRead, requireRole, type Actor } from '../access/access.ts';
import type { Context, RemoveBelow } from '../context.ts';
import { changedFieldsOf, recordChange } from '../events/index.ts';
import { forbidden, namesMismatch, notFound } from '../errors.ts';
import type { DeviceLink } from '../devices/index.ts';
import {
  deleteCustomer,
  findCustomer,
  insertCustomer,
  listCustomers,
  updateCustomer,
  type NewCustomerRow,
} from './customers.repo.ts';

type CreateInput = z.output<typeof CustomerCreateSchema>;
type UpdateInput = z.output<typeof CustomerUpdateSchema>;

/** Customers (spec §3): the provider creates and deletes them; a customer manager keeps its contacts. */
export class CustomersService {
  constructor(
    private readonly ctx: Context,
    private readonly link: DeviceLink,
    /** The flowboxes and images below, retired and deleted by their domains (composed in app.ts). */
    private readonly removeBelow: RemoveBelow,
  ) {}

  list(actor: Actor, query: ListQuery) {
    requireRole(actor, ROLES.flovea_manager);
    return listCustomers(this.ctx.db, query);
  }

  async info(actor: Actor, id: string): Promise<Customer> {
    requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
    requireCustomerRead(actor, id);
    const customer = await findCustomer(this.ctx.db, id);
    if (!customer) throw notFound();
    return customer;
  }

  async create(actor: Actor, input: CreateInput): Promise<Customer> {
    requireRole(actor, ROLES.flovea_manager);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertCustomer(tx, this.valuesOf(input) as NewCustomerRow);
      await recordChange(tx, this.ctx.now(), actor, {
        action: 'created',
        object: 'customer',
        objectId: created.id,
        objectLabel: created.name,
        scope: { customerId: created.id },
      });
      return created;
    });
    return this.info(actor, row.id);
  }

  async update(actor: Actor, id: string, input: UpdateInput): Promise<Customer> {
    requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager);
    requireCustomerRead(actor, id);
    // The name and the subscription date are the provider's commercial record.
    if (!isProvider(actor) && (input.name !== undefined || input.subscription_date !== undefined))
      throw forbidden();
    const before = await this.info(actor, id);
    await this.ctx.db.transaction(async (tx) => {
      await updateCustomer(tx, id, this.valuesOf(input));
      await recordChange(tx, this.ctx.now(), actor, {
        action: 'updated',
        object: 'customer',
        objectId: id,
        objectLabel: input.name ?? before.name,
        scope: { customerId: id },
        changedFields: changedFieldsOf(input),
      });
    });
    return this.info(actor, id);
  }

  /** Everything below goes with it (docs/hierarchy.md); its flowboxes' devices lose the broker. */
  async remove(actor: Actor, id: string, confirmName: string): Promise<void> {
    requireRole(actor, ROLES.flovea_manager);
    const customer = await this.info(actor, id);
    if (!typedNameMatches(confirmName, customer.name)) throw namesMismatch();
    const retired = await this.ctx.db.transaction(async (tx) => {
      const serials = await this.removeBelow(tx, { customerId: id }, actor, this.ctx.now());
      await deleteCustomer(tx, id);
      // The customer's own log goes with it; this line stays in the provider's log.
      await recordChange(tx, this.ctx.now(), actor, {
        action: 'deleted',
        object: 'customer',
        objectId: id,
        objectLabel: customer.name,
        scope: { customerId: null },
      });
      return serials;
    });
    this.link.disconnectAll(retired);
  }

  private valuesOf(input: UpdateInput): Partial<NewCustomerRow> {
    const values: Partial<NewCustomerRow> = {};
    if (input.name !== undefined) values.name = input.name;
    if (input.operations_contact !== undefined) values.operationsContact = input.operations_contact;
    if (input.technical_contact !== undefined) values.technicalContact = input.technical_contact;
    if (input.administrative_contact !== undefined)
      values.administrativeContact = input.administrative_contact;
    if (input.subscription_date !== undefined) values.subscriptionDate = input.subscription_date;
    return values;
  }
}
