import {
  ApiErrorSchema,
  DetachSchema,
  FlowboxCommandCreateSchema,
  FlowboxCommandSchema,
  FlowboxSchema,
  PairingPrepareSchema,
} from '@flowbox/shared';
import { z } from 'zod';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { CommandsService } from './commands.service.ts';
import type { FlowboxesService } from './flowboxes.service.ts';

const security = [{ bearer: [] }];
const zonePrefix = '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId';
const flowboxPrefix = `${zonePrefix}/flowboxes/:flowboxId`;
const flowboxParams = zoneParams.extend({ flowboxId: z.uuid('validation.invalid') });
const commandParams = flowboxParams.extend({ commandId: z.uuid('validation.invalid') });
/** The pairing decisions carry nothing but the flowbox in their path. */
const NoBody = z.object({}).nullish();
/**
 * Pairing calls that give the device a broker account: a broker whose accounts the server manages
 * (Mosquitto dynamic security) and that does not confirm it fails the call (DeviceLink.grant).
 */
const brokerUnconfirmed = {
  503: ApiErrorSchema.describe(
    'The device broker did not confirm the device account: nothing was stored, try again',
  ),
};

/** Flowboxes of a zone: the three pairing steps and their ends (spec §4), and commands (issue #4). */
export function flowboxesRoutes(app: App, flowboxes: FlowboxesService, commands: CommandsService): void {
  const tags = ['flowboxes'];
  app.get(
    `${zonePrefix}/flowboxes/list`,
    {
      schema: {
        tags,
        security,
        params: zoneParams,
        response: { 200: z.object({ items: z.array(FlowboxSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await flowboxes.list(actorOf(request), request.params) }),
  );
  app.post(
    `${zonePrefix}/flowboxes/pair`,
    {
      schema: {
        tags,
        security,
        summary: 'Prepare pairing (step 1/3): the zone expects this device',
        params: zoneParams,
        body: PairingPrepareSchema,
        response: { 201: FlowboxSchema, ...errorResponses, ...brokerUnconfirmed },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await flowboxes.prepare(actorOf(request), request.params, request.body)),
  );
  app.get(
    `${flowboxPrefix}/info`,
    {
      schema: { tags, security, params: flowboxParams, response: { 200: FlowboxSchema, ...errorResponses } },
    },
    (request) => flowboxes.info(actorOf(request), request.params),
  );
  app.post(
    `${flowboxPrefix}/validate`,
    {
      schema: {
        tags,
        security,
        summary: 'Finalise pairing (step 3/3) of a device that announced itself',
        params: flowboxParams,
        body: NoBody,
        response: { 200: FlowboxSchema, ...errorResponses, ...brokerUnconfirmed },
      },
    },
    (request) => flowboxes.validate(actorOf(request), request.params),
  );
  for (const [action, summary] of [
    ['refuse', 'Refuse pairing: the flowbox is removed and its credentials revoked'],
    ['unpair', 'Unpair a paired flowbox: it is removed and its credentials revoked'],
  ] as const) {
    app.post(
      `${flowboxPrefix}/${action}`,
      {
        schema: {
          tags,
          security,
          summary,
          params: flowboxParams,
          body: NoBody,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await flowboxes[action](actorOf(request), request.params);
        return reply.status(204).send(null);
      },
    );
  }
  app.delete(
    `${flowboxPrefix}/detach`,
    {
      schema: {
        tags,
        security,
        summary: 'Detach a flowbox whatever its pairing step (confirmed by typing its serial)',
        params: flowboxParams,
        body: DetachSchema,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await flowboxes.detach(actorOf(request), request.params, request.body.confirm_name);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${flowboxPrefix}/commands/send`,
    {
      schema: {
        tags,
        security,
        summary: 'Send a command; its outcome arrives on the live channel and in the command list',
        params: flowboxParams,
        body: FlowboxCommandCreateSchema,
        response: { 202: FlowboxCommandSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(202).send(await commands.issue(actorOf(request), request.params, request.body)),
  );
  app.get(
    `${flowboxPrefix}/commands/list`,
    {
      schema: {
        tags,
        security,
        summary: 'The 50 latest commands of the flowbox, newest first',
        params: flowboxParams,
        response: { 200: z.object({ items: z.array(FlowboxCommandSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await commands.list(actorOf(request), request.params) }),
  );
  app.get(
    `${flowboxPrefix}/commands/:commandId/info`,
    {
      schema: {
        tags,
        security,
        params: commandParams,
        response: { 200: FlowboxCommandSchema, ...errorResponses },
      },
    },
    (request) => commands.info(actorOf(request), request.params, request.params.commandId),
  );
}
