import {
  ConfirmNameSchema,
  CustomerCreateSchema,
  CustomerSchema,
  CustomerUpdateSchema,
  ListQuerySchema,
  listOf,
  SiteCreateSchema,
  SiteSchema,
  SiteUpdateSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { SitesService } from '../sites/sites.service.ts';
import type { CustomersService } from './customers.service.ts';

const security = [{ bearer: [] }];
const customerParams = z.object({ customerId: z.uuid('validation.invalid') });
const siteParams = customerParams.extend({ siteId: z.uuid('validation.invalid') });

/** Customers and their sites, in the shape of the spec's manager calls (§7). */
export function customersRoutes(app: App, customers: CustomersService, sites: SitesService): void {
  let tags = ['customers'];
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

  tags = ['sites'];
  app.get(
    '/customers/:customerId/sites/list',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        querystring: ListQuerySchema,
        response: { 200: listOf(SiteSchema), ...errorResponses },
      },
    },
    (request) => sites.list(actorOf(request), request.params.customerId, request.query),
  );
  app.get(
    '/customers/:customerId/sites/:siteId/info',
    { schema: { tags, security, params: siteParams, response: { 200: SiteSchema, ...errorResponses } } },
    (request) => sites.info(actorOf(request), request.params.customerId, request.params.siteId),
  );
  app.post(
    '/customers/:customerId/sites/create',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        body: SiteCreateSchema,
        response: { 201: SiteSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sites.create(actorOf(request), request.params.customerId, request.body)),
  );
  app.put(
    '/customers/:customerId/sites/:siteId/update',
    {
      schema: {
        tags,
        security,
        params: siteParams,
        body: SiteUpdateSchema,
        response: { 200: SiteSchema, ...errorResponses },
      },
    },
    (request) =>
      sites.update(actorOf(request), request.params.customerId, request.params.siteId, request.body),
  );
  app.delete(
    '/customers/:customerId/sites/:siteId/delete',
    {
      schema: {
        tags,
        security,
        params: siteParams,
        body: ConfirmNameSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await sites.remove(
        actorOf(request),
        request.params.customerId,
        request.params.siteId,
        request.body.confirm_name,
      );
      return reply.status(204).send(null);
    },
  );
}
