import { DEVICE_SECRET_PATTERN, SERIAL_PATTERN } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { DeviceAuthenticator } from '../devices/index.ts';
import { findFlowboxBySerial, liveSecretHash } from './flowboxes.repo.ts';
import { secretMatches } from './secrets.ts';

/**
 * The broker's and the firmware download's question "is this the device it claims to be?"
 * (docs/protocol.md "Credentials and the ACL"): a paired device by its own live secret, a device in
 * pairing mode by the factory secret typed when its pairing was prepared. A serial with neither is
 * unknown. Credentials come from anyone: a serial or secret of another form than every device's
 * (a U+0000 PostgreSQL cannot even compare, a megabyte of text) is refused before any query.
 */
export function deviceAuthenticator(db: Db): DeviceAuthenticator {
  return async (identity, secret) => {
    if (!SERIAL_PATTERN.test(identity.serial)) return 'unknown';
    if (!DEVICE_SECRET_PATTERN.test(secret)) return 'wrong';
    const hash =
      identity.role === 'device'
        ? await liveSecretHash(db, identity.serial)
        : (await findFlowboxBySerial(db, identity.serial))?.flowbox.factorySecretHash;
    if (!hash) return 'unknown';
    return secretMatches(secret, hash) ? 'ok' : 'wrong';
  };
}
