import {
  detectBatch,
  effectiveMargins,
  type Crossing,
  type DetectionState,
  type FlowReading,
  type Leak,
  type Margins,
  type OpeningHours,
  type PastCrossing,
  type ZoneProfile,
} from '@flowbox/shared';

/**
 * What detection reads of a stored telemetry reading (the telemetry module's `StoredReading`, or a
 * row of telemetry_readings replayed by the backtest). `placedAt` is its end on the server's time
 * line (docs/automation.md "Device clocks"): detection orders readings, tells fresh from stale and
 * picks opening hours by it; `measuredAt`, the device's clock, only measures the gaps between one
 * flowbox's own readings ("Whatever the delivery").
 */
export type AutomationReading = Omit<FlowReading, 'flowboxId' | 'seq' | 'deviceAt' | 'live'> & {
  zoneId: string;
  flowboxId: string;
  /** Absent (a hand-made reading): gaps on the placed time line. */
  seq?: number;
  placedAt: Date;
  /** Absent: true. */
  live?: boolean;
  /** Its batch's instant (`StoredReading.committedAt`): the batch is judged at it. */
  committedAt?: Date;
};

/** What a zone's detection decides with: its margins, its hours, and the modes that change the act. */
export type ZoneRules = {
  margins: Margins;
  zone: { profile: ZoneProfile; openingHours: OpeningHours | null; timezone: string };
  automaticClosingEnabled: boolean;
  maintenanceMode: boolean;
  leakDetectionMode: boolean;
};

/** An abnormal-consumption alert: its category says whether automatic closing held the zone then. */
type CrossingCategory = 'abnormal_water_consumption_with_ac' | 'abnormal_water_consumption_no_ac';

/**
 * One decision of detection, in the order it is acted on: the water closes (and the zone locks),
 * or an alert is raised. The live listener acts on each; the backtest lists them.
 */
export type ZoneDecision =
  | { kind: 'closing'; crossing: Crossing }
  | {
      kind: 'alert';
      cause: 'abnormal_consumption';
      category: CrossingCategory;
      crossing: Crossing | PastCrossing;
    }
  | {
      kind: 'alert';
      cause: 'continuous_flow' | 'leak_detection_mode';
      category: 'leakage_detection';
      leak: Leak;
    };

/**
 * One zone's readings of one batch (in placed order) judged by detection, and what to do about it:
 * the ONE function both the live listener (detection-listener.ts) and the backtest (backtest.ts)
 * call, so that a backtest of the settings in force decides what ingest decided.
 *
 * `locked`: automatic closing holds the zone (a crossing then only alerts). Answers the state
 * after the batch, the decisions in order, whether the zone is locked after them, and the readings
 * too late to be judged.
 */
export function decideZoneBatch(
  start: DetectionState,
  readings: readonly AutomationReading[],
  rules: ZoneRules,
  locked: boolean,
  now: Date,
): { state: DetectionState; decisions: ZoneDecision[]; locked: boolean; late: Set<AutomationReading> } {
  // On the server's time line; gaps between one flowbox's readings on its own clock.
  const fed: FlowReading[] = readings.map((r) => ({
    measuredAt: r.placedAt,
    deviceAt: r.measuredAt,
    live: r.live,
    flowboxId: r.flowboxId,
    seq: r.seq,
    intervalS: r.intervalS,
    volumeMl: r.volumeMl,
    flowS: r.flowS,
  }));
  const verdict = detectBatch(
    start,
    fed,
    (reading) => effectiveMargins(rules.margins, rules.zone, reading.measuredAt),
    now,
  );
  const decisions: ZoneDecision[] = [];
  const category = (): CrossingCategory =>
    locked ? 'abnormal_water_consumption_with_ac' : 'abnormal_water_consumption_no_ac';
  // Events whose crossing became known only after their water had stopped: an alert, never a closing.
  for (const past of verdict.past)
    decisions.push({ kind: 'alert', cause: 'abnormal_consumption', category: category(), crossing: past });
  for (const leak of verdict.leaks)
    decisions.push({ kind: 'alert', cause: 'continuous_flow', category: 'leakage_detection', leak });
  if (verdict.crossing) {
    // With automatic closing on (and the zone not in maintenance), the water closes and the zone
    // locks; otherwise an alert only.
    if (rules.automaticClosingEnabled && !rules.maintenanceMode && !locked) {
      decisions.push({ kind: 'closing', crossing: verdict.crossing });
      locked = true;
    } else
      decisions.push({
        kind: 'alert',
        cause: 'abnormal_consumption',
        category: category(),
        crossing: verdict.crossing,
      });
  }
  // spec §4 leak-detection mode: nobody should draw water, so any flow is a leak.
  const lateFed = new Set(verdict.late);
  const late = new Set(readings.filter((_, i) => lateFed.has(fed[i]!)));
  const flowing = readings.find((r) => (r.volumeMl > 0 || r.flowS > 0) && !late.has(r));
  if (flowing && rules.leakDetectionMode)
    decisions.push({
      kind: 'alert',
      cause: 'leak_detection_mode',
      category: 'leakage_detection',
      leak: {
        at: flowing.placedAt,
        flowboxId: flowing.flowboxId,
        seq: flowing.seq ?? null,
        eventStartedAt: verdict.state.eventStartedAt,
        volumeMl: verdict.state.eventVolumeMl,
        flowS: verdict.state.eventFlowS,
      },
    });
  return { state: verdict.state, decisions, locked, late };
}

/**
 * What an abnormal-consumption alert or a lock says of its crossing: the event at the reading that
 * crossed, and the margin as it applied then (off-hours margins are smaller). An event known only
 * after it stopped says so (`reported: 'late'`, with when its flow ended).
 */
export function crossingDetails(crossing: Crossing | PastCrossing) {
  const past = 'endedAt' in crossing;
  return {
    trigger: crossing.trigger,
    event_started_at: crossing.eventStartedAt?.toISOString() ?? null,
    volume_l: crossing.volumeMl / 1000,
    flow_minutes: Math.round(crossing.flowS / 60),
    flow_s: crossing.flowS,
    margin_volume_l: crossing.margins.volumeMl === null ? null : crossing.margins.volumeMl / 1000,
    margin_minutes: crossing.margins.flowS === null ? null : Math.round(crossing.margins.flowS / 60),
    ...(past ? { reported: 'late', event_ended_at: crossing.endedAt?.toISOString() ?? null } : {}),
  };
}

/** What a leak alert says of its event. */
export function leakDetails(leak: Leak) {
  return {
    event_started_at: leak.eventStartedAt?.toISOString() ?? null,
    volume_l: leak.volumeMl / 1000,
    flow_minutes: Math.round(leak.flowS / 60),
    flow_s: leak.flowS,
  };
}
