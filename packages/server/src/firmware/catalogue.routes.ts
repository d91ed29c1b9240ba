import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import {
  ApiErrorSchema,
  FIRMWARE_MAX_BYTES,
  FirmwareImageCreateSchema,
  FirmwareImagePatchSchema,
  FirmwareImageSchema,
  FirmwareImagesQuerySchema,
} from '@flowbox/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { zodValidatorCompiler } from '../http/error-handler.ts';
import type { MultipartBody } from '../http/openapi.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { FirmwareCatalogueService, FirmwareUpload } from './catalogue.service.ts';

const tags = ['firmware'];
const security = [{ bearer: [] }];
const imageParams = z.object({ imageId: z.uuid('validation.invalid') });

/** The upload form, fields first: the server checks them before it reads the file behind them. */
const UPLOAD_FORM: MultipartBody = {
  type: 'object',
  required: ['version', 'models', 'file'],
  properties: {
    version: { type: 'string', description: 'MAJOR.MINOR.PATCH, as in the file name' },
    models: {
      type: 'array',
      items: { type: 'string', enum: ['half_inch_v1', 'one_inch_v1', 'two_inches_v1'] },
      description: 'The models it fits: the field repeated, or one value with commas',
    },
    notes_en: { type: 'string', description: 'Release notes in English (4,000 characters at most)' },
    notes_fr: { type: 'string', description: 'Release notes in French (4,000 characters at most)' },
    released_to: {
      type: 'string',
      description: '`all` (the default), or customer ids: the field repeated, or one value with commas',
    },
    file: {
      type: 'string',
      format: 'binary',
      description: 'The image, named flowbox-{models}-{version}.bin, 16 MiB at most; after the fields',
    },
  },
};

/** The firmware catalogue (docs/firmware.md "Catalogue"). */
export function firmwareCatalogueRoutes(app: App, catalogue: FirmwareCatalogueService): void {
  app.get(
    '/firmware/images',
    {
      schema: {
        tags,
        security,
        summary: 'The firmware catalogue: every image (provider), or those released to your customer',
        querystring: FirmwareImagesQuerySchema,
        response: { 200: z.object({ items: z.array(FirmwareImageSchema) }), ...errorResponses },
      },
    },
    async (request) => ({ items: await catalogue.list(actorOf(request), request.query) }),
  );
  app.post(
    '/firmware/images',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        multipart: UPLOAD_FORM,
        summary: 'Upload a firmware image (provider managers)',
        description:
          'A multipart form: the fields, then the file. The server computes its SHA-256 and size. A name ' +
          'that does not say the declared models and version answers 400 errors.firmware_naming.',
        response: {
          201: FirmwareImageSchema,
          ...errorResponses,
          409: ApiErrorSchema.describe(
            'That version of one of these models, or the same file, is in the catalogue',
          ),
          413: ApiErrorSchema.describe('The image is larger than 16 MiB'),
        },
      },
    },
    async (request, reply) => {
      const image = await catalogue.upload(actorOf(request), () => firmwareUpload(request));
      return reply.code(201).send(image);
    },
  );
  app.get(
    '/firmware/images/:imageId',
    {
      schema: {
        tags,
        security,
        summary: 'One firmware image of the catalogue',
        params: imageParams,
        response: { 200: FirmwareImageSchema, ...errorResponses },
      },
    },
    (request) => catalogue.get(actorOf(request), request.params.imageId),
  );
  app.patch(
    '/firmware/images/:imageId',
    {
      schema: {
        tags,
        security,
        summary: 'Change the notes, release or status of an image (provider managers)',
        description: 'Status: active → deprecated → withdrawn; a withdrawn image stays withdrawn (409).',
        params: imageParams,
        body: FirmwareImagePatchSchema,
        response: { 200: FirmwareImageSchema, ...errorResponses },
      },
    },
    (request) => catalogue.patch(actorOf(request), request.params.imageId, request.body),
  );
}

/**
 * The form's fields, checked as a JSON body is: text PostgreSQL cannot hold (U+0000) is the field's
 * 400, not a failed insert (a 500), then the schema.
 */
const validateFields = zodValidatorCompiler({ schema: FirmwareImageCreateSchema });

/**
 * The upload's file part and the fields sent before it. Busboy is allowed one byte past the limit,
 * so that the service, counting, sees the image is too large and answers its own 413.
 */
async function firmwareUpload(request: FastifyRequest): Promise<FirmwareUpload> {
  const missingFile = () =>
    new AppError('errors.validation', {}, [{ path: 'file', message: 'validation.required' }]);
  if (!request.isMultipart()) throw missingFile();
  // The multipart parser throws a bare Error (a 500) on a form without its boundary.
  if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) throw missingFile();
  const file = await request.file({ limits: { fileSize: FIRMWARE_MAX_BYTES + 1, files: 1, parts: 20 } });
  if (!file) throw missingFile();
  const discard = () => void file.file.resume();
  const checked = validateFields(formFields(file));
  if ('error' in checked) {
    discard();
    throw checked.error;
  }
  return {
    fileName: file.filename,
    input: checked.value as z.output<typeof FirmwareImageCreateSchema>,
    // Not destroyed when the service stops reading (a refusal): `discard` then drains the rest.
    bytes: file.file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>,
    discard,
  };
}

/** The form's fields as FirmwareImageCreateSchema reads them; lists repeated or comma-separated. */
function formFields(file: MultipartFile): Record<string, unknown> {
  const values = (name: string): string[] => {
    const field = file.fields[name];
    const parts = (Array.isArray(field) ? field : field ? [field] : []).filter(
      (part): part is MultipartValue<string> => part.type === 'field',
    );
    return parts.map((part) => part.value);
  };
  const one = (name: string) => values(name)[0];
  const list = (name: string) =>
    values(name)
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value !== '');
  const releasedTo = list('released_to');
  return {
    version: one('version'),
    models: list('models'),
    notes_en: one('notes_en') ?? '',
    notes_fr: one('notes_fr') ?? '',
    released_to:
      releasedTo.length === 0 || (releasedTo.length === 1 && releasedTo[0] === 'all') ? 'all' : releasedTo,
  };
}
