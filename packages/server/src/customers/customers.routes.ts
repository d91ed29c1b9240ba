import {
  ConfirmNameSchema,
  CustomerCreateSchema,
  CustomerSchema,
  CustomerUpdateSchema,
  ListQuerySchema,
  listOf,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { CustomersService } from './customers.service.ts';

const security = [{ bearer: [] }];
const customerParams = z.object({ customerId: z.uuid('validation.invalid') });

/** Customers, in the shape of the spec's manager calls (§7). */
export function customersRoutes(app: App, customers: CustomersService): void {
  const tags = ['customers'];
  app.get(
    '/customers/list',
    {
      schema: {
        tags,
        security,
        querystring: ListQuerySchema,
        response: { 200: listOf(CustomerSchema), ...errorResponses },
      },
    },
    (request) => customers.list(actorOf(request), request.query),
  );
  app.get(
    '/customers/:customerId/info',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        response: { 200: CustomerSchema, ...errorResponses },
      },
    },
    (request) => customers.info(actorOf(request), request.params.customerId),
  );
  app.post(
    '/customers/create',
    {
      schema: {
        tags,
        security,
        body: CustomerCreateSchema,
        response: { 201: CustomerSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await customers.create(actorOf(request), request.body)),
  );
  app.put(
    '/customers/:customerId/update',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        body: CustomerUpdateSchema,
        response: { 200: CustomerSchema, ...errorResponses },
      },
    },
    (request) => customers.update(actorOf(request), request.params.customerId, request.body),
  );
  app.delete(
    '/customers/:customerId/delete',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await customers.remove(actorOf(request), request.params.customerId, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );
}
