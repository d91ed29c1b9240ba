import type { IncomingHttpHeaders } from 'node:http';
import { ApiErrorSchema } from '@flowbox/shared';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { sendFile } from '../files/files.http.ts';
import { errorResponses, type App } from '../http/types.ts';
import type { DownloadClaims } from './download-token.ts';
import type { FirmwareDownloadService } from './download.service.ts';

export const DOWNLOAD_PATH = '/v1/firmware/download/';

/** What a 401 asks for (RFC 7617): the device's serial and secret. */
const CHALLENGE = 'Basic realm="flowbox firmware", charset="UTF-8"';

const binary = { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } };

/**
 * The device's download of its firmware image (docs/firmware.md "Device protocol" 3). Outside the
 * user routes: a device has no user token; it signs in with HTTP Basic serial:secret.
 */
export function firmwareDownloadRoutes(app: App, downloads: FirmwareDownloadService): void {
  app.get(
    '/firmware/download/:token',
    {
      schema: {
        tags: ['firmware'],
        security: [{ device: [] }],
        summary: "A device's download of the image of its update (HTTP Basic serial:secret)",
        description:
          'The URL comes in the `update_firmware` command. One range (`Range: bytes=N-`) resumes an ' +
          'interrupted download with 206; `ETag` is the SHA-256 and `If-Range` is honoured. Each request ' +
          'counts as a download of the update: past FIRMWARE_DOWNLOAD_ATTEMPTS the update is ' +
          'block_download_failed and answers 410.',
        params: z.object({ token: z.string().max(400, 'validation.too_long') }),
        response: {
          200: { description: 'The whole image', content: binary },
          206: { description: 'The bytes of the range asked for', content: binary },
          ...errorResponses,
          401: ApiErrorSchema.describe('No device credentials, or wrong ones (with WWW-Authenticate)'),
          403: ApiErrorSchema.describe("A token forged, tampered, or another device's"),
          410: ApiErrorSchema.describe(
            'The update is no longer downloading (finished, cancelled, blocked, timed out), or its URL expired (FIRMWARE_URL_TTL_S from the command)',
          ),
          416: ApiErrorSchema.describe('The range starts past the end of the image'),
        },
      },
    },
    async (request, reply) => {
      const download = await downloads
        .open({
          token: request.params.token,
          credentials: basicCredentials(request.headers),
          headers: { range: request.headers.range, ifRange: headerValue(request.headers['if-range']) },
          sendsBytes: request.method === 'GET',
        })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === 'errors.device_auth_failed')
            reply.header('www-authenticate', CHALLENGE);
          throw error;
        });
      reply.header('cache-control', 'private, no-store');
      return sendFile(request, reply, download);
    },
  );
}

/** HTTP Basic `serial:secret` (RFC 7617), or null when absent or garbled. */
export function basicCredentials(headers: IncomingHttpHeaders): { serial: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(headers.authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { serial: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** Whether these are a device's own serial and secret (its MQTT credentials). */
export type DeviceCredentialsCheck = (serial: string, secret: string) => Promise<boolean>;

/**
 * The rate limit's key for a download: the device's serial, not its address. A fleet behind one
 * NAT shares an address, and a rollout's downloads would otherwise use up the budget of every
 * browser behind it (docs/firmware.md "Downloads and limits"). Only once the request is known to be
 * the device's: a genuine, unexpired token naming it (an HMAC) and its own serial and secret. A
 * serial anyone can write (a header, a URL seen in a log) would let a stranger use up the device's
 * budget, so that its own download answers 429; such a request counts against its own address.
 */
export async function downloadRateKey(
  request: { url?: string; headers: IncomingHttpHeaders },
  verify: (token: string) => DownloadClaims | null,
  isDevice: DeviceCredentialsCheck,
): Promise<string | undefined> {
  if (!request.url?.startsWith(DOWNLOAD_PATH)) return undefined;
  const token = request.url.slice(DOWNLOAD_PATH.length).split('?')[0] ?? '';
  const claims = verify(token);
  if (!claims) return undefined;
  const credentials = basicCredentials(request.headers);
  if (credentials?.serial !== claims.serial) return undefined;
  return (await isDevice(credentials.serial, credentials.secret)) ? `device:${claims.serial}` : undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
