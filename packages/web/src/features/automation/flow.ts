import { FLOW_GAP_S, LITERS_PER_UNIT, type Automation } from '@flowbox/shared';

export type FlowNow =
  | { state: 'none' }
  /** Water runs: the event's volume (in the zone's unit) and minutes so far, since its start. */
  | { state: 'running'; volume: number; minutes: number; since: string }
  /** Water ran and stopped (no flow for FLOW_GAP_S, or the valve closed after it): when it stopped. */
  | { state: 'stopped'; volume: number; minutes: number; since: string; stoppedAt: string };

/**
 * What the card says of the zone's flow event. The detection keeps an event open until a reading
 * shows flow again after a gap, so "under way" is decided here: an event whose last flow is older
 * than the gap, or came before the valve's confirmed closing, is over.
 */
export function flowNow(automation: Automation, nowMs: number): FlowNow {
  const event = automation.event;
  if (!event) return { state: 'none' };
  const volume = event.volume_l / Number(LITERS_PER_UNIT[automation.volume_unit]);
  const common = { volume, minutes: event.flow_minutes, since: event.started_at };
  const lastFlow = Date.parse(event.last_flow_at);
  // A reading is dated at the end of the span it measured: flow it reports up to a gap after the
  // valve's confirmed closing ran before it. Flow later than that is a valve that does not hold.
  const closedAt = automation.close_confirmed_at;
  const closedOnIt =
    closedAt !== null &&
    Date.parse(event.started_at) <= Date.parse(closedAt) &&
    lastFlow - Date.parse(closedAt) < FLOW_GAP_S * 1000;
  if (closedOnIt)
    return {
      state: 'stopped',
      ...common,
      stoppedAt: lastFlow < Date.parse(closedAt) ? event.last_flow_at : closedAt,
    };
  if (nowMs - lastFlow >= FLOW_GAP_S * 1000)
    return { state: 'stopped', ...common, stoppedAt: event.last_flow_at };
  return { state: 'running', ...common };
}
