import {
  CONFIRM_MAX_RANGES,
  CONFIRM_PERIOD_S,
  deviceTopic,
  encodePayload,
  parseTopic,
  PROTOCOL_VERSION,
  type Confirm,
  type Telemetry,
} from '@flowbox/shared';
import { TelemetryWriter, type Outcome } from '../telemetry/index.ts';

export type ConfirmationCounters = {
  /** Confirmation messages published. */
  sent: number;
  /** Readings they confirmed. */
  readings: number;
};

/**
 * The end-to-end confirmation, server side (docs/protocol.md "Confirmation of committed readings"):
 * each telemetry message ingest has dealt with (committed, found stored already, or refused for
 * good) is noted here once it has, and every device with notes gets one message listing them as
 * ranges, at most once per `CONFIRM_PERIOD_S`: one message per device per period whatever its rate,
 * so that a fast or replaying device costs one publish a second, not one per reading.
 */
export class Confirmations {
  readonly counters: ConfirmationCounters = { sent: 0, readings: 0 };
  private pending = new Map<string, number[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** Publishes one confirmation, QoS 0, without waiting (a lost one costs only a replay). */
    private readonly publish: (topic: string, payload: string) => void,
    private readonly now: () => Date,
    private readonly everyMs = CONFIRM_PERIOD_S * 1000,
  ) {}

  /** Notes that this reading of the device is dealt with; call it only once it is (after commit). */
  add(serial: string, seq: number): void {
    const seqs = this.pending.get(serial);
    if (seqs) seqs.push(seq);
    else this.pending.set(serial, [seq]);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.everyMs);
      this.timer.unref();
    }
  }

  /** Sends what is noted, one message per device (more when its ranges do not fit in one). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    const at = this.now().toISOString();
    for (const [serial, seqs] of pending) {
      const all = toRanges(seqs);
      for (let i = 0; i < all.length; i += CONFIRM_MAX_RANGES) {
        const message: Confirm = { v: PROTOCOL_VERSION, at, telemetry: all.slice(i, i + CONFIRM_MAX_RANGES) };
        this.publish(deviceTopic(serial, 'confirm'), encodePayload(message));
        this.counters.sent += 1;
      }
      this.counters.readings += seqs.length;
    }
  }

  /** Sends what is left (call it before the broker connection closes). */
  close(): void {
    this.flush();
  }
}

/** Sequence numbers as sorted, merged inclusive ranges: [5, 3, 4, 9] → [[3, 5], [9, 9]]. */
export function toRanges(seqs: readonly number[]): [number, number][] {
  const sorted = [...seqs].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const seq of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && seq <= last[1] + 1) last[1] = Math.max(last[1], seq);
    else ranges.push([seq, seq]);
  }
  return ranges;
}

/**
 * The batch writer, remembering the sequence number of the reading it was last handed: ingest hands
 * a reading over as it reads it, so right after `ingest.handle()` returns its promise this names
 * that message's reading without reading its JSON again (the hot path of ingest).
 */
export class ConfirmingWriter extends TelemetryWriter {
  private lastSeq: number | undefined;

  override submit(serial: string, telemetry: Telemetry): Promise<Outcome> {
    this.lastSeq = telemetry.seq;
    return super.submit(serial, telemetry);
  }

  /** The seq of the reading handed over since the last call, if any. */
  takeSubmitted(): number | undefined {
    const seq = this.lastSeq;
    this.lastSeq = undefined;
    return seq;
  }
}

/**
 * Wraps ingest so that every telemetry message it has dealt with is confirmed: `handle` resolving
 * means dealt with (stored, a duplicate, or dropped for good: malformed or from no paired device),
 * rejecting means not stored (left for the broker to redeliver, and not confirmed). A reading the
 * writer never saw (dropped by the parser) is read once more for its seq: rare, and if it has none
 * there is nothing a device could match anyway.
 */
export function confirmingHandler(
  handle: (topic: string, payload: Uint8Array) => Promise<void>,
  writer: ConfirmingWriter,
  confirmations: Confirmations,
): (topic: string, payload: Uint8Array) => Promise<void> {
  return (topic, payload) => {
    writer.takeSubmitted();
    const handled = handle(topic, payload);
    if (!topic.endsWith('/telemetry')) return handled;
    const seq = writer.takeSubmitted() ?? telemetrySeqOf(payload);
    const serial = parseTopic(topic)?.serial;
    if (seq === undefined || serial === undefined) return handled;
    return handled.then(() => confirmations.add(serial, seq));
  };
}

/** The `seq` of a telemetry payload the parser refused, when it has a usable one. */
export function telemetrySeqOf(payload: Uint8Array): number | undefined {
  try {
    const value = JSON.parse(Buffer.from(payload).toString('utf8')) as unknown;
    const seq = typeof value === 'object' && value !== null && 'seq' in value ? value.seq : undefined;
    return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 1 ? seq : undefined;
  } catch {
    return undefined;
  }
}
