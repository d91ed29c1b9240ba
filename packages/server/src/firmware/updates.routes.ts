import { FirmwareUpdateCreateSchema, FirmwareUpdateSchema, FlowboxFirmwareSchema } from '@flowbox/shared';
import { z } from 'zod';
import { zoneParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { FirmwareUpdatesService } from './updates.service.ts';

const security = [{ bearer: [] }];
const tags = ['firmware'];
const flowboxParams = zoneParams.extend({ flowboxId: z.uuid('validation.invalid') });
const path =
  '/customers/:customerId/sites/:siteId/buildings/:buildingId/zones/:zoneId/flowboxes/:flowboxId/firmware';

/** A flowbox's firmware card and its single update (docs/firmware.md). */
export function firmwareUpdatesRoutes(app: App, updates: FirmwareUpdatesService): void {
  app.get(
    path,
    {
      schema: {
        tags,
        security,
        summary: 'The flowbox’s versions, the images it may take, its running update and its history',
        params: flowboxParams,
        response: { 200: FlowboxFirmwareSchema, ...errorResponses },
      },
    },
    (request) => updates.flowboxFirmware(actorOf(request), request.params),
  );
  app.post(
    path,
    {
      schema: {
        tags,
        security,
        summary: 'Update the flowbox’s firmware to this image (sends the update_firmware command)',
        params: flowboxParams,
        body: FirmwareUpdateCreateSchema,
        response: { 201: FirmwareUpdateSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await updates.request(actorOf(request), request.params, request.body)),
  );
}
