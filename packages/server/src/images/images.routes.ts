import {
  ApiErrorSchema,
  BUILDING_IMAGE_KINDS,
  IMAGE_TYPES,
  ImageAnswerSchema,
  MAX_IMAGE_BYTES,
  SITE_IMAGE_KINDS,
} from '@flowbox/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { sendFile } from '../files/files.http.ts';
import { buildingParams, customerParams, siteParams } from '../http/params.ts';
import { actorOf, errorResponses, type App } from '../http/types.ts';
import type { ImagesService } from './images.service.ts';

const tags = ['images'];
const security = [{ bearer: [] }];
/** Documented as a multipart form with one `file` part (see app.ts, where the body is described). */
const consumes = ['multipart/form-data'];
const uploadResponses = {
  200: ImageAnswerSchema,
  ...errorResponses,
  413: ApiErrorSchema.describe('The image is larger than 5 MiB'),
  415: ApiErrorSchema.describe('Not a PNG, JPEG or WebP image'),
};
const sitePrefix = '/customers/:customerId/sites/:siteId';

/** Uploading (PUT, multipart) and serving images: logos, plans and pictures. */
export function imagesRoutes(app: App, images: ImagesService): void {
  app.put(
    '/customers/:customerId/logo',
    {
      schema: {
        tags,
        security,
        consumes,
        summary: "Upload or replace the customer's logo",
        params: customerParams,
        response: uploadResponses,
      },
    },
    (request) =>
      images.replaceCustomerLogo(actorOf(request), request.params.customerId, () => imageBytes(request)),
  );
  app.put(
    `${sitePrefix}/images/:kind`,
    {
      schema: {
        tags,
        security,
        consumes,
        summary: "Upload or replace the site's logo or plan",
        params: siteParams.extend({ kind: z.enum(SITE_IMAGE_KINDS, 'validation.select') }),
        response: uploadResponses,
      },
    },
    (request) => {
      const { kind, ...path } = request.params;
      return images.replaceSiteImage(actorOf(request), path, kind, () => imageBytes(request));
    },
  );
  app.put(
    `${sitePrefix}/buildings/:buildingId/images/:kind`,
    {
      schema: {
        tags,
        security,
        consumes,
        summary: "Upload or replace the building's plan or picture",
        params: buildingParams.extend({ kind: z.enum(BUILDING_IMAGE_KINDS, 'validation.select') }),
        response: uploadResponses,
      },
    },
    (request) => {
      const { kind, ...path } = request.params;
      return images.replaceBuildingImage(actorOf(request), path, kind, () => imageBytes(request));
    },
  );
  app.get(
    '/images/:imageId',
    {
      schema: {
        tags,
        security,
        summary: 'An uploaded image, for whoever may read the record it belongs to',
        description:
          'Answers one byte range (`Range: bytes=a-b`, `a-`, `-n`) with 206, a range past the end with ' +
          '416, and 304 to an `If-None-Match` naming its ETag (the SHA-256 of its bytes).',
        params: z.object({ imageId: z.uuid('validation.invalid') }),
        response: {
          200: { description: 'The image', content: imageContent },
          206: { description: 'The bytes of the range asked for', content: imageContent },
          304: z.null().describe('Not modified: If-None-Match names the image’s ETag'),
          ...errorResponses,
          416: ApiErrorSchema.describe('The range starts past the end of the image'),
        },
      },
    },
    async (request, reply) => {
      const image = await images.read(actorOf(request), request.params.imageId);
      reply
        .header('content-disposition', 'inline')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600');
      return sendFile(request, reply, image);
    },
  );
}

/** An image's types, documented as binary strings. */
const imageContent = Object.fromEntries(
  Object.values(IMAGE_TYPES).map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }]),
);

/** The one file part of the upload, at most 5 MiB (larger: 413 errors.image_too_large). */
async function imageBytes(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError('errors.image_type');
  // The multipart parser throws a bare Error (a 500) on a form without its boundary.
  if (!/;\s*boundary=/i.test(request.headers['content-type'] ?? ''))
    throw new AppError('errors.validation', {}, [{ path: 'file', message: 'validation.required' }]);
  const file = await request.file({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1, parts: 10 } });
  if (!file) throw new AppError('errors.validation', {}, [{ path: 'file', message: 'validation.required' }]);
  return file.toBuffer();
}
