import {
  type Rollout,
  ALL_FIRMWARE_UPDATE_STATES,
  FIRMWARE_STATE_GROUPS,
  firmwareStateGroup,
  type FirmwareStateGroup,
  type FirmwareUpdateState,
  type Language,
} from '@flowbox/shared';
import { numberFormat } from '../../lib/intl.ts';

/** How the screens group an update's twelve states (docs/firmware.md), as the server does. */
export const STATE_GROUPS = FIRMWARE_STATE_GROUPS;
export type StateGroup = FirmwareStateGroup;
export const groupOf = firmwareStateGroup;

export type StateCounts = Partial<Record<FirmwareUpdateState, number>>;

/** A rollout's or a wave's counts per state, summed per group (every group present). */
export function groupCounts(counts: StateCounts): Record<StateGroup, number> {
  const sums = Object.fromEntries(STATE_GROUPS.map((group) => [group, 0])) as Record<StateGroup, number>;
  for (const state of ALL_FIRMWARE_UPDATE_STATES) sums[groupOf(state)] += counts[state] ?? 0;
  return sums;
}

export type StateTone = 'neutral' | 'accent' | 'good' | 'warn';
const TONES: Record<StateGroup, StateTone> = {
  waiting: 'neutral',
  running: 'accent',
  success: 'good',
  failed: 'warn',
  left_out: 'neutral',
};

/** The badge colour of a state; the words carry the meaning, the colour helps. */
export const stateTone = (state: FirmwareUpdateState): StateTone => TONES[groupOf(state)];

/** A size in the language's units: "2.5 MB", "2,5 Mo" (binary multiples, as the size limit's text). */
export function formatSize(bytes: number, language: Language): string {
  const [value, unit] =
    bytes >= 1024 * 1024
      ? [bytes / (1024 * 1024), 'megabyte']
      : bytes >= 1024
        ? [bytes / 1024, 'kilobyte']
        : [bytes, 'byte'];
  return numberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

/** "42 %" in English, "42 %" with a narrow space in French; whole percents. */
export function formatPercent(pct: number, language: Language): string {
  return numberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(pct / 100);
}

/** The share of `part` in `whole`, 0 to 100; 0 for an empty whole. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? (part * 100) / whole : 0;
}

/**
 * The place a rollout runs over, for display: the server stores the hierarchy's names, and for the
 * whole fleet no name at all, which is said in the reader's language.
 */
export function targetLabel(target: Rollout['target'], wholeFleet: string): string {
  const { customer_id, site_id, building_id, zone_id } = target;
  return (customer_id ?? site_id ?? building_id ?? zone_id) ? target.label : wholeFleet;
}
