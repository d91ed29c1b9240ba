import {
  ClaimCodeCreateSchema,
  ClaimCodeIssuedSchema,
  ClaimCodeSchema,
  listOf,
  RegistrationListQuerySchema,
  RegistrationSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { customerParams, zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { EndUsersService } from './endusers.service.ts';

const security = [{ bearer: [] }];
const uuidParam = z.uuid('validation.invalid');
/** Calls that take no body: an empty one (or none) is accepted. */
const NoBody = z.object({}).nullish();
const ZONE = '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId/claim_codes';

/** Claim codes of a zone and the review of registrations (docs/permissions.md "Registration"). */
export function endUsersRoutes(app: App, service: EndUsersService): void {
  const codeTags = ['claim codes'];
  app.get(
    `${ZONE}/list`,
    {
      schema: {
        tags: codeTags,
        security,
        params: zoneParams,
        response: { 200: listOf(ClaimCodeSchema), ...errorResponses },
      },
    },
    (request) => service.listCodes(actorOf(request), request.params),
  );
  app.post(
    `${ZONE}/create`,
    {
      schema: {
        tags: codeTags,
        security,
        params: zoneParams,
        body: ClaimCodeCreateSchema,
        response: { 201: ClaimCodeIssuedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.issueCode(actorOf(request), request.params, request.body)),
  );
  app.post(
    `${ZONE}/:codeId/revoke`,
    {
      schema: {
        tags: codeTags,
        security,
        params: zoneParams.extend({ codeId: uuidParam }),
        body: NoBody,
        response: { 200: ClaimCodeSchema, ...errorResponses },
      },
    },
    (request) => service.revokeCode(actorOf(request), request.params, request.params.codeId),
  );

  const tags = ['registrations'];
  const one = customerParams.extend({ registrationId: uuidParam });
  app.get(
    '/customers/:customerId/registrations/list',
    {
      schema: {
        tags,
        security,
        params: customerParams,
        querystring: RegistrationListQuerySchema,
        response: { 200: listOf(RegistrationSchema), ...errorResponses },
      },
    },
    (request) => service.listRegistrations(actorOf(request), request.params.customerId, request.query),
  );
  app.post(
    '/customers/:customerId/registrations/:registrationId/approve',
    {
      schema: {
        tags,
        security,
        params: one,
        body: NoBody,
        response: { 200: RegistrationSchema, ...errorResponses },
      },
    },
    (request) => service.approve(actorOf(request), request.params.customerId, request.params.registrationId),
  );
  app.post(
    '/customers/:customerId/registrations/:registrationId/refuse',
    {
      schema: {
        tags,
        security,
        params: one,
        body: NoBody,
        response: { 200: RegistrationSchema, ...errorResponses },
      },
    },
    (request) => service.refuse(actorOf(request), request.params.customerId, request.params.registrationId),
  );
}
