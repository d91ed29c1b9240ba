import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The request body of an image upload: one `file` part of a multipart form. */
const MULTIPART_IMAGE_BODY = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', format: 'binary', description: 'PNG, JPEG or WebP, 5 MiB at most' } },
};

/**
 * The zod schemas become the OpenAPI document; multipart uploads, which are read as a stream and
 * not validated by a schema, are described here.
 */
export function documentTransform(input: TransformInput) {
  const transformed = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes;
  if (consumes?.includes('multipart/form-data')) {
    return { ...transformed, schema: { ...transformed.schema, body: MULTIPART_IMAGE_BODY } };
  }
  return transformed;
}
