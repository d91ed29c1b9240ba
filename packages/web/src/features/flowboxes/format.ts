import { numberFormat } from '../../lib/intl.ts';
import {
  ACK_REFUSAL_REASONS,
  AUTOTEST_CHECK_RESULTS,
  AUTOTEST_RESULTS,
  FINAL_COMMAND_STATUSES,
  type AckRefusalReason,
  type CommandStatus,
  type Flowbox,
  type FlowboxCommand,
  type FlowboxCommandName,
  type Language,
} from '@flowbox/shared';

export type Tone = 'neutral' | 'accent' | 'good' | 'warn';

export const COMMAND_STATUS_TONE: Record<CommandStatus, Tone> = {
  pending: 'neutral',
  sent: 'accent',
  acked: 'accent',
  done: 'good',
  refused: 'warn',
  expired: 'warn',
};

export const PAIRING_TONE: Record<Flowbox['pairing_state'], Tone> = {
  init: 'accent',
  pending: 'warn',
  ready: 'good',
};

export const CONNECTION_TONE: Record<Flowbox['connection'], Tone> = {
  connected: 'good',
  disconnected: 'warn',
  never: 'neutral',
};

/** A reading with the language's decimal mark, or null when the device never reported it. */
export function formatReading(value: number | null, language: Language, digits = 1): string | null {
  if (value === null) return null;
  return numberFormat(language, { maximumFractionDigits: digits }).format(value);
}

/**
 * Within this, a device clock shows "on time": its measured skew includes the receipt delay
 * (network, batching), so a right clock reads a second or two behind (docs/automation.md "Device clocks").
 */
export const CLOCK_ON_TIME_S = 5;

export type ClockState = 'unknown' | 'on_time' | 'ahead' | 'behind';

/** A flowbox's clock against the server's, from its skew in seconds (positive: ahead). */
export function clockState(skewS: number | null): ClockState {
  if (skewS === null) return 'unknown';
  if (Math.abs(skewS) <= CLOCK_ON_TIME_S) return 'on_time';
  return skewS > 0 ? 'ahead' : 'behind';
}

export type DurationUnit = 'd' | 'h' | 'min' | 's';
const UNIT_SECONDS: readonly [DurationUnit, number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['min', 60],
  ['s', 1],
];

/**
 * A duration as its largest unit and the next one when not zero ("3 min 12 s", "2 h", "4 d 5 h"):
 * the size of a clock's error matters, not its last seconds.
 */
export function durationParts(seconds: number): [number, DurationUnit][] {
  const total = Math.abs(Math.round(seconds));
  const first = UNIT_SECONDS.findIndex(([, size]) => total >= size);
  if (first < 0) return [[0, 's']];
  const [unit, size] = UNIT_SECONDS[first]!;
  const parts: [number, DurationUnit][] = [[Math.floor(total / size), unit]];
  const next = UNIT_SECONDS[first + 1];
  const nextValue = next ? Math.floor((total % size) / next[1]) : 0;
  if (next && nextValue > 0) parts.push([nextValue, next[0]]);
  return parts;
}

export type AutotestCheck = { name: string; result: (typeof AUTOTEST_CHECK_RESULTS)[number] };
export type AutotestOutcome = { result: (typeof AUTOTEST_RESULTS)[number]; checks: AutotestCheck[] };

/** An autotest command's result as the device reported it (docs/protocol.md `autotest_result`). */
export function autotestOutcome(command: FlowboxCommand): AutotestOutcome | null {
  const result = command.result;
  if (!result || typeof result.result !== 'string') return null;
  if (!(AUTOTEST_RESULTS as readonly string[]).includes(result.result)) return null;
  const checks = Array.isArray(result.checks) ? result.checks.filter(isCheck) : [];
  return { result: result.result as AutotestOutcome['result'], checks };
}

function isCheck(value: unknown): value is AutotestCheck {
  if (typeof value !== 'object' || value === null) return false;
  const check = value as Record<string, unknown>;
  return (
    typeof check.name === 'string' && (AUTOTEST_CHECK_RESULTS as readonly unknown[]).includes(check.result)
  );
}

/** Why a command was refused, when the device said (docs/protocol.md acknowledgements). */
export function refusalReason(command: FlowboxCommand): AckRefusalReason | null {
  const reason = command.result?.reason;
  return command.status === 'refused' && (ACK_REFUSAL_REASONS as readonly unknown[]).includes(reason)
    ? (reason as AckRefusalReason)
    : null;
}

/**
 * What a user switches on a flowbox, each with the command that turns it on and the one that turns
 * it off (for the valve, "on" is open: the water flows).
 */
export const SWITCHES = {
  valve: { on: 'valve_open', off: 'valve_close' },
  maintenance: { on: 'maintenance_on', off: 'maintenance_off' },
  leak_detection: { on: 'leak_detection_on', off: 'leak_detection_off' },
} as const satisfies Record<string, { on: FlowboxCommandName; off: FlowboxCommandName }>;
export type SwitchName = keyof typeof SWITCHES;
export type SwitchCommand = (typeof SWITCHES)[SwitchName]['on' | 'off'];

/** The switch as the device last reported it; null when it never did. */
export function switchState(flowbox: Flowbox, name: SwitchName): boolean | null {
  if (name === 'valve') return flowbox.valve === null ? null : flowbox.valve === 'opened';
  return name === 'maintenance' ? flowbox.maintenance_mode : flowbox.leak_detection_mode;
}

/**
 * The commands worth offering: the one that changes the state; both when the state is unknown,
 * since either may be what the device needs.
 */
export function offeredCommands(name: SwitchName, state: boolean | null): SwitchCommand[] {
  const { on, off } = SWITCHES[name];
  return state === null ? [on, off] : [state ? off : on];
}

/**
 * The switch's command still on its way to the device (queued, sent or acknowledged), from the
 * newest-first command list; undefined once the device answered it or the server expired it (the
 * command job expires it and the live channel says so).
 */
export function pendingCommand(
  commands: readonly FlowboxCommand[],
  name: SwitchName,
): (FlowboxCommand & { name: SwitchCommand }) | undefined {
  const { on, off } = SWITCHES[name];
  return commands.find(
    (command): command is FlowboxCommand & { name: SwitchCommand } =>
      (command.name === on || command.name === off) && !FINAL_COMMAND_STATUSES.includes(command.status),
  );
}
