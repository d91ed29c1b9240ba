import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DOCS_CSP } from './csp.ts';
import type { App } from './types.ts';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The request body of an image upload: one `file` part of a multipart form. */
const MULTIPART_IMAGE_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG or WebP, 5 MiB at most' } },
};

/** A multipart form's parts as OpenAPI describes them, given by a route as its schema's `multipart`. */
export type MultipartBody = {
  type: 'object';
  required: string[];
  properties: Record<string, { type: string; format?: string; description?: string; items?: object }>;
};

/**
 * The zod schemas become the OpenAPI document; multipart uploads, which are read as a stream and
 * not validated by a schema, are described here: an image's one file, or the route's own `multipart`.
 */
export function documentTransform(input: TransformInput) {
  const transformed = jsonSchemaTransform(input);
  const schema = input.schema as { consumes?: string[]; multipart?: MultipartBody } | undefined;
  if (schema?.consumes?.includes('multipart/form-data')) {
    const body = schema.multipart ?? MULTIPART_IMAGE_BODY;
    return { ...transformed, schema: { ...transformed.schema, body } };
  }
  return transformed;
}

/** The OpenAPI document of the routes registered after it, served with its pages at `/v1/docs`. */
export async function apiDocs(app: App): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Flowbox Manager API', version: '1' },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // A flowbox's serial and secret (its MQTT credentials): firmware downloads.
          device: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: documentTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs', staticCSP: DOCS_CSP });
}
