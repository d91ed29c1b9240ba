import {
  crossingFromJson,
  crossingToJson,
  heldDueAt,
  LITERS_PER_UNIT,
  type DetectionState,
  type Margins,
  type VolumeUnit,
} from '@flowbox/shared';
import type { AutomationRow, ZoneAutomation } from './automation.repo.ts';
import type { ZoneRules } from './zone-decisions.ts';

/** Litres in one of a volume unit. */
export const litresPer = (unit: VolumeUnit) => Number(LITERS_PER_UNIT[unit]);

/** The margins of the settings, in millilitres and flowing seconds; a disabled one is null. */
export function marginsOf(row: AutomationRow): Margins {
  const volume =
    row.volumeMarginEnabled && row.volumeMargin !== null && row.volumeMarginUnit
      ? Math.round(Number(row.volumeMargin) * litresPer(row.volumeMarginUnit) * 1000)
      : null;
  const duration =
    row.durationMarginEnabled && row.durationMarginMinutes !== null ? row.durationMarginMinutes * 60 : null;
  return { volumeMl: volume, flowS: duration };
}

/** The detector's state as the zone's row stores it. */
export function stateOf(row: AutomationRow): DetectionState {
  return {
    eventStartedAt: row.eventStartedAt,
    lastFlowAt: row.lastFlowAt,
    lastFlowFlowboxId: row.lastFlowFlowboxId,
    lastFlowSeq: row.lastFlowSeq,
    lastFlowDeviceAt: row.lastFlowDeviceAt,
    lastFlowLive: row.lastFlowLive,
    eventVolumeMl: row.eventVolumeMl,
    eventFlowS: row.eventFlowS,
    eventCrossing: row.eventCrossing ? crossingFromJson(row.eventCrossing) : null,
    eventTriggered: row.eventTriggered,
    eventLeakRaised: row.eventLeakRaised,
    lastMeasuredAt: row.lastMeasuredAt,
    detectionBlockedUntil: row.detectionBlockedUntil,
    seqs: row.seqs,
    held: row.held,
  };
}

/** The row's columns that store the detector's state. */
export function stateColumns(state: DetectionState): Partial<AutomationRow> {
  return {
    ...state,
    eventCrossing: state.eventCrossing ? crossingToJson(state.eventCrossing) : null,
    heldUntil: heldDueAt(state),
  };
}

/** A zone's rules as they stand: its margins, its hours, whether it closes by itself. */
export function rulesOf(found: ZoneAutomation): ZoneRules {
  return {
    margins: marginsOf(found.automation),
    zone: {
      profile: found.zone.profile,
      openingHours: found.zone.openingHours ?? found.building.openingHours,
      timezone: found.building.timezone,
    },
    automaticClosingEnabled: found.automation.automaticClosingEnabled,
    maintenanceMode: found.zone.maintenanceMode,
    leakDetectionMode: found.zone.leakDetectionMode,
  };
}
