import { jsonSchemaTransform } from 'fastify-type-provider-zod';

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
