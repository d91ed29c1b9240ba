import { createHash, randomBytes } from 'node:crypto';
import { firmwareFileName, type FlowboxModel } from '@flowbox/shared';
import type { LightMyRequestResponse } from 'fastify';
import type { ApiClient } from '../test/harness.ts';

/*
 * Test and benchmark helpers for the firmware catalogue: the upload form as a browser sends it
 * (the fields, then the file) and images of random bytes.
 */

export type FirmwareFormFields = Record<string, string | string[]>;

/** A multipart form: each field (repeated for a list), then the file part. */
export function firmwareForm(fields: FirmwareFormFields, bytes: Buffer, fileName: string) {
  const boundary = `----flowbox${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    for (const one of Array.isArray(value) ? value : [value])
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${one}\r\n`),
      );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export type ImageToUpload = {
  version: string;
  models?: FlowboxModel[];
  bytes?: Buffer;
  fileName?: string;
  releasedTo?: string | string[];
  notes?: { en?: string; fr?: string };
};

/**
 * Uploads an image through the API (random bytes of 4 KiB unless given); its name fits unless given,
 * released to every customer unless given.
 */
export function uploadFirmware(client: ApiClient, image: ImageToUpload): Promise<LightMyRequestResponse> {
  const models = image.models ?? ['one_inch_v1'];
  const fields: FirmwareFormFields = {
    version: image.version,
    models,
    released_to: image.releasedTo ?? 'all',
  };
  if (image.notes?.en !== undefined) fields.notes_en = image.notes.en;
  if (image.notes?.fr !== undefined) fields.notes_fr = image.notes.fr;
  const { payload, headers } = firmwareForm(
    fields,
    image.bytes ?? randomBytes(4096),
    image.fileName ?? firmwareFileName(models, image.version),
  );
  return client.request('POST', '/v1/firmware/images', payload, headers);
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
