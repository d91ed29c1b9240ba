import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A device secret (the protocol's DEVICE_SECRET_PATTERN): 32 random bytes, base64url. */
export function newDeviceSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256, not argon2: device secrets are 256 random bits, which no dictionary reaches, and the
 * broker checks one on every device connection, where a slow hash would let a reconnect storm of
 * thousands of devices stall the server (docs/decisions.md).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function secretMatches(secret: string, hash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
