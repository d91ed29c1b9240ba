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
  required: ['version', 'models', 'released_to', 'file'],
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
      description:
        '`all`, or customer ids: the field repeated, or one value with commas. Required: no release is ' +
        'given by default',
    },
    file: {
      type: 'string',
      format: 'binary',
      description:
        'The image, named flowbox-{models}-{version}.bin, 16 MiB at most; the last part: a field after ' +
        'it answers 400 errors.firmware_fields_after_file',
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
          'A multipart form: the fields, then the file (a field after the file answers 400 ' +
          'errors.firmware_fields_after_file). The server computes its SHA-256 and size. A name ' +
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

type Part = MultipartFile | MultipartValue<unknown>;

/**
 * The upload's file part and the fields sent before it. Busboy is allowed one byte past the limit,
 * so that the service, counting, sees the image is too large and answers its own 413. The fields
 * are checked before the file is read; a field after the file (curl's `-F` order) would be read
 * too late to count, so the upload is refused naming it (docs/firmware.md "Catalogue").
 */
async function firmwareUpload(request: FastifyRequest): Promise<FirmwareUpload> {
  const missingFile = () =>
    new AppError('errors.validation', {}, [{ path: 'file', message: 'validation.required' }]);
  if (!request.isMultipart()) throw missingFile();
  // The multipart parser throws a bare Error (a 500) on a form without its boundary.
  if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? '')) throw missingFile();
  const form = request.parts({ limits: { fileSize: FIRMWARE_MAX_BYTES + 1, files: 1, parts: 20 } });
  const parts = form[Symbol.asyncIterator]() as AsyncIterator<Part>;
  const fields: MultipartValue<unknown>[] = [];
  let next = await parts.next();
  for (; !next.done && next.value.type === 'field'; next = await parts.next()) fields.push(next.value);
  if (next.done) throw missingFile();
  const file = next.value as MultipartFile;
  const discard = () => {
    file.file.resume();
    void partsAfterFile(parts).catch(() => undefined);
  };
  const checked = validateFields(formFields(fields));
  if ('error' in checked) {
    // A field missing before the file may be one sent after it: that is the mistake to name.
    await drained(file);
    const later = await partsAfterFile(parts).catch(() => []);
    throw fieldsAfterFile(later) ?? checked.error;
  }
  return {
    fileName: file.filename,
    input: checked.value as z.output<typeof FirmwareImageCreateSchema>,
    bytes: fileThenNothing(file, parts),
    discard,
  };
}

/**
 * The file's bytes, then the end of the form: a part after the file refuses the upload before the
 * service stores it. Not destroyed when the service stops reading (a refusal): `discard` then
 * drains the rest.
 */
async function* fileThenNothing(file: MultipartFile, parts: AsyncIterator<Part>): AsyncGenerator<Buffer> {
  yield* file.file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
  const refusal = fieldsAfterFile(await partsAfterFile(parts));
  if (refusal) throw refusal;
}

/** The names of the parts sent after the file, read to the form's end (a second file: "file"). */
async function partsAfterFile(parts: AsyncIterator<Part>): Promise<string[]> {
  const names: string[] = [];
  try {
    for (let next = await parts.next(); !next.done; next = await parts.next()) {
      names.push(next.value.fieldname);
      if (next.value.type === 'file') next.value.file.resume();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    // A second file passes `files: 1`: the parser says so instead of handing it over.
    if (code === 'FST_FILES_LIMIT') names.push('file');
    // A file past its limit: the service has answered its own 413 (the size is its to judge).
    else if (code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
  }
  return names;
}

function fieldsAfterFile(names: string[]): AppError | undefined {
  if (names.length === 0) return undefined;
  return new AppError('errors.firmware_fields_after_file', { fields: [...new Set(names)].join(', ') });
}

async function drained(file: MultipartFile): Promise<void> {
  for await (const piece of file.file) void piece;
}

/** The form's fields as FirmwareImageCreateSchema reads them; lists repeated or comma-separated. */
function formFields(parts: MultipartValue<unknown>[]): Record<string, unknown> {
  const values = (name: string): string[] =>
    parts.filter((part) => part.fieldname === name).map((part) => String(part.value));
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
      releasedTo.length === 0
        ? undefined
        : releasedTo.length === 1 && releasedTo[0] === 'all'
          ? 'all'
          : releasedTo,
  };
}
