import type { DeviceEvent } from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import type { LocatedFlowbox } from '../db/scope.ts';
import type { CommandRow } from './commands.repo.ts';

export type FirmwareProgressEvent = Extract<DeviceEvent, { type: 'firmware_progress' }>;

/** How the device answered an `update_firmware` command (docs/protocol.md acks). */
export type FirmwareCommandAnswer = 'accepted' | 'done' | 'refused' | 'expired';

/**
 * What the firmware domain hears from the device path (docs/firmware.md "Device protocol"): the
 * answers to its commands, its progress events and the versions its states report. Each is called
 * inside the transaction that stores the message, so an update's state moves exactly when the
 * message is stored. The flowboxes domain does not import the firmware domain: app.ts registers it.
 */
export type FirmwareListener = {
  commandAnswered(
    db: Db,
    command: CommandRow,
    answer: FirmwareCommandAnswer,
    reason: string | null,
    at: Date,
  ): Promise<void>;
  progress(db: Db, located: LocatedFlowbox, event: FirmwareProgressEvent, at: Date): Promise<void>;
  /** `located` as it was before this state was applied (its connection, its former version). */
  versionReported(db: Db, located: LocatedFlowbox, firmwareVersion: string, at: Date): Promise<void>;
};

/** The firmware listeners of one app (one in the product; none in tests that do not need it). */
export class FirmwareHooks implements FirmwareListener {
  private readonly listeners: FirmwareListener[] = [];

  register(listener: FirmwareListener): void {
    this.listeners.push(listener);
  }

  async commandAnswered(
    db: Db,
    command: CommandRow,
    answer: FirmwareCommandAnswer,
    reason: string | null,
    at: Date,
  ): Promise<void> {
    for (const l of this.listeners) await l.commandAnswered(db, command, answer, reason, at);
  }

  async progress(db: Db, located: LocatedFlowbox, event: FirmwareProgressEvent, at: Date): Promise<void> {
    for (const l of this.listeners) await l.progress(db, located, event, at);
  }

  async versionReported(db: Db, located: LocatedFlowbox, firmwareVersion: string, at: Date): Promise<void> {
    for (const l of this.listeners) await l.versionReported(db, located, firmwareVersion, at);
  }
}
