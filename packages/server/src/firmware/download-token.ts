import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The token of a firmware download URL (docs/firmware.md "Device protocol"): it names one device,
 * one image and one update, expires, and is signed with a key derived from the server's secret, so
 * it cannot be forged, moved to another device or mistaken for a session token. The download also
 * asks the device's own credentials: a token alone opens nothing.
 */
export type DownloadClaims = { serial: string; imageId: string; updateId: string; expiresAt: Date };

const VERSION = 'f1';
const PART = /^[A-Za-z0-9_-]{1,64}$/;

function keyOf(secret: string): Buffer {
  return createHmac('sha256', secret).update('flowbox firmware download').digest();
}

function macOf(key: Buffer, body: string): string {
  return createHmac('sha256', key).update(body).digest('base64url');
}

export function signDownloadToken(claims: DownloadClaims, secret: string): string {
  const body = [
    VERSION,
    claims.serial,
    claims.imageId,
    claims.updateId,
    Math.floor(claims.expiresAt.getTime() / 1000),
  ].join('.');
  return `${body}.${macOf(keyOf(secret), body)}`;
}

/** The claims of a genuine, unexpired token; null for anything else (forged, garbled, expired). */
export function verifyDownloadToken(token: string, secret: string, now: Date): DownloadClaims | null {
  const claims = readDownloadToken(token, secret);
  return claims && claims.expiresAt.getTime() > now.getTime() ? claims : null;
}

/**
 * The claims of a genuine token, expired or not (null when forged or garbled): the download route
 * tells an expired URL (its update's window is over: 410) from one that was never valid (403).
 */
export function readDownloadToken(token: string, secret: string): DownloadClaims | null {
  if (token.length > 400) return null;
  const parts = token.split('.');
  if (parts.length !== 6 || parts[0] !== VERSION) return null;
  const [, serial, imageId, updateId, exp, mac] = parts as [string, string, string, string, string, string];
  if (![serial, imageId, updateId, mac].every((p) => PART.test(p)) || !/^\d{1,12}$/.test(exp)) return null;
  const expected = Buffer.from(macOf(keyOf(secret), parts.slice(0, 5).join('.')));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { serial, imageId, updateId, expiresAt: new Date(Number(exp) * 1000) };
}
