import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { DeviceCredentials } from './device.ts';

/**
 * Writes the credentials a device was handed when paired into its entry of the `--devices` file
 * (README "fleet.json"), so that the next run signs it in with them: the server hands a password out
 * once. The rest of the file is kept as it is; the new file replaces the old one whole, with its mode
 * (it holds factory secrets and passwords).
 */
export function keepCredentials(path: string, serial: string, credentials: DeviceCredentials): void {
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>;
  const updated = entries.map((entry) =>
    entry.serial === serial
      ? { ...entry, username: credentials.username, password: credentials.password }
      : entry,
  );
  const next = `${path}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify(updated, null, 2)}\n`, { mode: statSync(path).mode & 0o777 });
  renameSync(next, path);
}
