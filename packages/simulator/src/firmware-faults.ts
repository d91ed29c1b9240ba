import { deriveSeed } from './random.ts';

/**
 * What can go wrong while a simulated flowbox updates its firmware (docs/firmware.md, issue 17):
 * - `slow`: the download is capped at `bytesPerS`;
 * - `interrupted`: every connection is cut after `afterBytes` bytes, and the device resumes with a
 *   range request (enough cuts exhaust its attempts: `block_download_failed`);
 * - `corrupt`: one byte of every download arrives flipped, so the checksum never matches;
 * - `rollback`: the install fails and the device reboots into its old image;
 * - `silent`: the device stops saying anything about the update once it has `atPct` % of the image
 *   (the server times it out).
 */
export type FirmwareFault =
  | { kind: 'slow'; bytesPerS: number }
  | { kind: 'interrupted'; afterBytes: number }
  | { kind: 'corrupt' }
  | { kind: 'rollback' }
  | { kind: 'silent'; atPct: number };

export type FirmwareFaultKind = FirmwareFault['kind'];
export const FIRMWARE_FAULT_KINDS = [
  'slow',
  'interrupted',
  'corrupt',
  'rollback',
  'silent',
] as const satisfies readonly FirmwareFaultKind[];

/** A fault given to a share of a fleet, or to the devices named. */
export type FleetFirmwareFault = {
  fault: FirmwareFault;
  /** Fraction of the fleet, 0 to 1: the devices that carry it are chosen by the fleet's seed. */
  share?: number;
  /** The devices that carry it; with `share` as well, the share is taken among them. */
  serials?: readonly string[];
};

/**
 * The serials that carry a fault given to `share` of them: exactly `round(share × n)` devices,
 * ranked by a hash of the seed, the fault's kind and the serial, so the same seed picks the same
 * devices whatever the fleet's order, and each kind picks its own.
 */
export function serialsCarrying(
  serials: readonly string[],
  share: number,
  seed: number,
  kind: FirmwareFaultKind,
): Set<string> {
  const count = Math.round(Math.min(1, Math.max(0, share)) * serials.length);
  const ranked = [...serials].sort(
    (a, b) => deriveSeed(seed, `${kind}:${a}`) - deriveSeed(seed, `${kind}:${b}`) || a.localeCompare(b),
  );
  return new Set(ranked.slice(0, count));
}

/** The firmware faults of each serial of a fleet, from the fleet-wide ones. */
export function firmwareFaultsBySerial(
  serials: readonly string[],
  faults: readonly FleetFirmwareFault[],
  seed: number,
): Map<string, FirmwareFault[]> {
  const result = new Map<string, FirmwareFault[]>(serials.map((s) => [s, []]));
  for (const { fault, share, serials: named } of faults) {
    const candidates = named ? serials.filter((s) => named.includes(s)) : serials;
    const carrying =
      share === undefined ? new Set(candidates) : serialsCarrying(candidates, share, seed, fault.kind);
    for (const serial of carrying) result.get(serial)?.push(fault);
  }
  return result;
}
