import {
  deviceTimestampVerdict,
  parseDeviceMessage,
  type DeviceEvent,
  type DeviceMessage,
  type DeviceState,
  type EventAction,
  type Presence,
} from '@flowbox/shared';
import type { Context } from '../context.ts';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import { INGEST_DROP_REASONS, toApiFlowbox, type DropReason, type IngestCounters } from '../devices/index.ts';
import { recordEvent } from '../events/index.ts';
import { notifyLive } from '../live/index.ts';
import { DiskFullError, TelemetryHooks, TelemetryWriter } from '../telemetry/index.ts';
import { mirrorDeviceState } from '../zones/index.ts';
import type { CommandsService } from './commands.service.ts';
import {
  claimReceipt,
  findFlowboxBySerial,
  markSilentDisconnected,
  updateFlowbox,
  type NewFlowboxRow,
} from './flowboxes.repo.ts';
import type { FlowboxesService } from './flowboxes.service.ts';
import { PresenceBatch } from './presence-batch.ts';
import { judgeClocks, rebootAlert } from '../alerts/index.ts';

type Logger = { warn: (obj: object, msg: string) => void; error?: (obj: object, msg: string) => void };
/** Device messages whose `at` is the device's clock and is checked; presence and pairing carry none. */
const BOUNDED_KINDS: ReadonlySet<string> = new Set(['telemetry', 'state', 'events', 'acks']);

/** A device that keeps sending garbage is logged once a minute, not once a message. */
const LOG_EVERY_MS = 60_000;
const LOG_MEMORY = 10_000;

/**
 * Device messages into the database (DESIGN.md §3, issue #4). Each message is checked with the
 * protocol's parser; a malformed, oversized or schema-violating one, one from a device that is not
 * paired, or one dated outside the window around the server's clock, is counted and dropped, never
 * thrown, so one bad device cannot stall the others. A message that could not be STORED is never
 * dropped: `handle` rejects and the message stays unacknowledged (docs/reliability.md).
 */
export class FlowboxIngest {
  readonly counters: IngestCounters = {
    received: 0,
    applied: 0,
    duplicates: 0,
    dropped: Object.fromEntries(INGEST_DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>,
    not_stored: 0,
    misdated: 0,
  };
  private readonly lastLogged = new Map<string, number>();
  /** Each device's messages other than telemetry, applied one after the other in arrival order. */
  private readonly inOrder = new Map<string, Promise<unknown>>();
  /** Heartbeats of connected flowboxes, written in batches. */
  readonly presence: PresenceBatch;

  constructor(
    private readonly ctx: Context,
    private readonly flowboxes: FlowboxesService,
    private readonly commands: CommandsService,
    private readonly log: Logger,
    private readonly heartbeatTimeoutS: number,
    /** Telemetry goes through the batch writer (issue #6); tests may leave it to the default. */
    readonly telemetry: TelemetryWriter = new TelemetryWriter(ctx, new TelemetryHooks(), {
      warn: (obj, msg) => log.warn(obj, msg),
      error: (obj, msg) => (log.error ?? log.warn)(obj, msg),
    }),
  ) {
    this.presence = new PresenceBatch(ctx);
  }

  /**
   * Handles one device message. Resolves once it is stored, or dropped for good (malformed, from a
   * device not paired, dated outside the window, a reading the database refused: counted, and
   * acknowledged, since sending it again changes nothing). REJECTS when storing it failed (the
   * database away, a transaction that did not commit), whatever its kind: the caller then does
   * not acknowledge it, and the broker or the device delivers it again (issue #20 item 3).
   */
  async handle(topic: string, payload: Uint8Array): Promise<void> {
    this.counters.received += 1;
    const parsed = parseDeviceMessage(topic, payload);
    if (!parsed.ok) return this.drop(parsed.reason, parsed.serial, parsed.detail);
    const { value } = parsed;
    if (BOUNDED_KINDS.has(value.kind)) {
      const { at } = value.message as { at: string };
      const verdict = deviceTimestampVerdict(at, this.ctx.now().getTime());
      // A reading's `at` places it (its hour, its day): outside the window it is dropped. States,
      // events and acks are dated by the server when they arrive, their `at` is only the device's
      // word: a device whose clock is wrong must still confirm a safety close or report a valve
      // turned by hand, so they are applied, and counted (docs/reliability.md).
      if (verdict !== 'ok') {
        if (value.kind === 'telemetry') {
          this.drop(verdict, value.serial, `${value.kind} at ${at}`);
          return this.reportClock(value.serial, at);
        }
        this.counters.misdated += 1;
        if (this.mayLog(`misdated:${value.serial}`))
          this.log.warn(
            { serial: value.serial, kind: value.kind, at },
            'device message dated by a wrong clock; applied',
          );
      }
    }
    if (value.kind === 'telemetry') {
      // Readings of one device may share a batch in any order: each is keyed by its seq.
      const outcome = await this.telemetry.submit(value.serial, value.message).catch((error: unknown) => {
        throw this.notStored(value.serial, error);
      });
      if (outcome === 'unknown_device' || outcome === 'rejected')
        return this.drop(outcome, value.serial, value.kind);
      if (outcome === 'duplicate') this.counters.duplicates += 1;
      else this.counters.applied += 1;
      return;
    }
    // Events, states and acks of one device are applied in the order they came, one at a time,
    // whichever connection or broker path brought them.
    const previous = this.inOrder.get(value.serial);
    const applied = (previous ?? Promise.resolve()).then(
      () => this.apply(value),
      () => this.apply(value),
    );
    this.inOrder.set(value.serial, applied);
    try {
      await applied;
    } catch (error) {
      throw this.notStored(value.serial, error);
    } finally {
      if (this.inOrder.get(value.serial) === applied) this.inOrder.delete(value.serial);
    }
  }

  private async apply(value: Exclude<DeviceMessage, { kind: 'telemetry' }>): Promise<void> {
    if (value.kind === 'pairing/request') {
      await this.flowboxes.announce(value.serial, value.message);
      this.counters.applied += 1;
      return;
    }
    // "Online", the fleet's most frequent message (a heartbeat a minute, and every device at once
    // after a broker restart): written in a batch, whether it connects the flowbox or not. Not taken
    // means not paired, which the lookup below finds again (a pairing may have ended meanwhile).
    if (
      value.kind === 'presence' &&
      value.message.status === 'online' &&
      (await this.presence.seen(value.serial))
    ) {
      this.counters.applied += 1;
      return;
    }
    const located = await findFlowboxBySerial(this.ctx.db, value.serial);
    if (!located || located.flowbox.pairingState !== 'ready')
      return this.drop('unknown_device', value.serial, value.kind);
    switch (value.kind) {
      case 'presence':
        await this.applyPresence(located, value.message);
        break;
      case 'state':
        await this.applyState(located, value.message);
        break;
      case 'events':
        await this.applyEvent(located, value.message);
        break;
      case 'acks':
        await this.seen(located);
        await this.commands.acknowledge(value.serial, value.message);
        break;
    }
    this.counters.applied += 1;
  }

  /**
   * A device whose readings are dropped for their dates (a clock days or years off) never reaches a
   * telemetry batch, where clocks are judged: its clock alert is judged here from the dropped
   * reading, at most once a minute per device. Best effort: the reading is dropped either way.
   */
  private async reportClock(serial: string, at: string): Promise<void> {
    const atMs = Date.parse(at);
    if (!Number.isFinite(atMs) || !this.mayLog(`clock:${serial}`)) return;
    try {
      const located = await findFlowboxBySerial(this.ctx.db, serial);
      if (!located || located.flowbox.pairingState !== 'ready') return;
      const now = this.ctx.now();
      // Judged, not stored: placement goes on from the clock of the readings it stored, so one
      // reading dated a day ahead cannot move the device's next ones a day back.
      await this.ctx.db.transaction((tx) =>
        judgeClocks(tx, [
          {
            flowboxId: located.flowbox.id,
            zoneId: located.scope.zoneId,
            serial,
            at: now,
            offsetMs: now.getTime() - atMs,
          },
        ]),
      );
    } catch (error) {
      this.log.warn(
        { serial, err: error instanceof Error ? error.message : String(error) },
        'device clock not judged',
      );
    }
  }

  /** Counts and logs (a device at most once a minute) a message left unacknowledged; answers the error. */
  private notStored(serial: string, error: unknown): unknown {
    this.counters.not_stored += 1;
    // A full disk is said once by the writer (and by readiness), not once a device.
    if (!(error instanceof DiskFullError) && this.mayLog(`not-stored:${serial}`))
      this.log.warn(
        { serial, err: error instanceof Error ? error.message : String(error) },
        'device message not stored; left unacknowledged for the device to send again',
      );
    return error;
  }

  /** Devices silent for three heartbeats are disconnected, even if their will never fired. */
  async detectSilentDevices(): Promise<number> {
    const now = this.ctx.now();
    const before = new Date(now.getTime() - this.heartbeatTimeoutS * 1000);
    return this.ctx.db.transaction(async (tx) => {
      const silent = await markSilentDisconnected(tx, before, now);
      for (const located of silent) await notifyLive(tx, { type: 'flowbox', flowbox: toApiFlowbox(located) });
      return silent.length;
    });
  }

  private async applyPresence(located: LocatedFlowbox, presence: Presence): Promise<void> {
    if (presence.status === 'online') return this.seen(located);
    // A retained "offline" read again after a restart must not move "disconnected since".
    if (!located.flowbox.connected) return;
    await this.update(located, { connected: false, connectionChangedAt: this.ctx.now() });
  }

  private async applyState(located: LocatedFlowbox, state: DeviceState): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      await this.write(tx, located, this.statePatch(located, state), now);
      // The version a state reports ends an installing update (docs/firmware.md "What the server decides").
      await this.commands.firmware.versionReported(tx, located, state.versions.firmware, now);
    });
  }

  private statePatch(located: LocatedFlowbox, state: DeviceState): Partial<NewFlowboxRow> {
    return {
      ...this.connection(located),
      valve: state.valve,
      maintenanceMode: state.maintenance_mode,
      leakDetectionMode: state.leak_detection_mode,
      model: state.model,
      waterTemperature: state.water_temperature,
      espVersion: state.versions.esp,
      boardVersion: state.versions.board,
      firmwareVersion: state.versions.firmware,
      networkInterface: state.network.interface,
      networkAddress: state.network.address,
      networkGateway: state.network.gateway,
      wifiSsid: state.network.wifi_ssid,
      ...(state.temperature_c !== null ? { temperature: String(state.temperature_c) } : {}),
      ...(state.humidity_pct !== null ? { humidity: String(state.humidity_pct) } : {}),
    };
  }

  /** Events happen once: a redelivery (same flowbox + seq) finds its receipt and changes nothing. */
  private async applyEvent(located: LocatedFlowbox, event: DeviceEvent): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction(async (tx) => {
      if (!(await claimReceipt(tx, located.flowbox.id, event.seq, now))) {
        this.counters.duplicates += 1;
        return;
      }
      const device = (action: EventAction, changedFields: string[] = []) =>
        recordEvent(tx, now, {
          action,
          object: 'flowbox',
          objectId: located.flowbox.id,
          objectLabel: located.flowbox.serial,
          scope: located.scope,
          by: null,
          origin: 'device',
          changedFields,
        });
      let patch: Partial<NewFlowboxRow> = this.connection(located);
      switch (event.type) {
        case 'valve_operated_by_hand':
          await device(event.valve === 'opened' ? 'valve_opened' : 'valve_closed');
          patch = { ...patch, valve: event.valve };
          break;
        case 'maintenance_mode_set_on_device':
          await device(event.enabled ? 'maintenance_enabled' : 'maintenance_disabled');
          patch = { ...patch, maintenanceMode: event.enabled };
          break;
        case 'leak_detection_timeout':
          await device('leak_detection_timeout');
          patch = { ...patch, leakDetectionMode: false };
          break;
        case 'autotest_result':
          await this.commands.recordAutotest(tx, located, event.command_id, event, now);
          break;
        case 'reboot':
          // A reboot the server asked for is logged by its command (origin web, with who asked); one
          // into a new firmware by its update's line, its success or failure (docs/firmware.md).
          if (event.reason !== 'command' && event.reason !== 'firmware_update')
            await device('rebooted', [event.reason]);
          await rebootAlert(tx, located, event.reason, now);
          break;
        case 'firmware_progress':
          // The update's own state machine (docs/firmware.md), in the event's transaction.
          await this.commands.firmware.progress(tx, located, event, now);
          break;
      }
      await this.write(tx, located, patch, now);
    });
  }

  /** Any message is a sign of life (docs/protocol.md "Presence and heartbeat"). */
  private async seen(located: LocatedFlowbox): Promise<void> {
    await this.update(located, this.connection(located));
  }

  private connection(located: LocatedFlowbox): Partial<NewFlowboxRow> {
    const now = this.ctx.now();
    return located.flowbox.connected
      ? { lastSeenAt: now }
      : { connected: true, connectionChangedAt: now, lastSeenAt: now };
  }

  private async update(located: LocatedFlowbox, patch: Partial<NewFlowboxRow>): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.transaction((tx) => this.write(tx, located, patch, now));
  }

  /**
   * Applies a patch and tells the browsers. Valve and modes are also the zone's (spec §3 zone
   * fields): the device is the truth about them.
   */
  private async write(
    db: Db,
    located: LocatedFlowbox,
    patch: Partial<NewFlowboxRow>,
    now: Date,
  ): Promise<void> {
    const row = await updateFlowbox(db, located.flowbox.id, patch, now);
    const zonePatch = {
      ...(patch.valve ? { valveState: patch.valve } : {}),
      ...(patch.maintenanceMode !== undefined && patch.maintenanceMode !== null
        ? { maintenanceMode: patch.maintenanceMode }
        : {}),
      ...(patch.leakDetectionMode !== undefined && patch.leakDetectionMode !== null
        ? { leakDetectionMode: patch.leakDetectionMode }
        : {}),
    };
    if (Object.keys(zonePatch).length > 0) await mirrorDeviceState(db, located.scope.zoneId, zonePatch);
    const visible = patch.lastSeenAt === undefined || Object.keys(patch).length > 1;
    if (visible)
      await notifyLive(db, {
        type: 'flowbox',
        flowbox: toApiFlowbox({ flowbox: row, scope: located.scope }),
      });
  }

  private drop(reason: DropReason, serial: string | null, detail: string): void {
    this.counters.dropped[reason] += 1;
    if (this.mayLog(serial ?? '(no serial)'))
      this.log.warn({ serial, reason, detail: detail.slice(0, 200) }, 'device message dropped');
  }

  /** A device that keeps sending garbage is logged once a minute, not once a message. */
  private mayLog(key: string): boolean {
    const now = this.ctx.now().getTime();
    const last = this.lastLogged.get(key);
    if (last !== undefined && now - last < LOG_EVERY_MS) return false;
    if (this.lastLogged.size >= LOG_MEMORY) this.lastLogged.clear();
    this.lastLogged.set(key, now);
    return true;
  }
}
