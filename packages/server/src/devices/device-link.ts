import {
  deviceTopic,
  encodePayload,
  TOPIC_QOS,
  TOPIC_RETAINED,
  type DeviceIdentity,
  type TopicKind,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { AccountCounters, DeviceCounters } from './counters.ts';

/** What the server needs of a broker connection to reach devices. */
export type DevicePublisher = {
  /** Hands the message to the MQTT client without waiting for the broker (QoS 1 delivery is the client's). */
  publish: (topic: string, payload: string, options: { qos: 0 | 1; retain: boolean }) => void;
  /** Closes the device's current connection, when the broker is ours (a revoked credential). */
  disconnect: (serial: string) => void;
};

/**
 * Device accounts on an external broker that the server manages (Mosquitto dynamic security,
 * docs/protocol.md). The database stays the truth: an account is created before the credential is
 * committed, and deleted after it is revoked; reconciliation removes what a failure left behind.
 */
export type DeviceAccounts = {
  /**
   * Creates (or replaces) the identity's account with this secret, in the transaction that records
   * it; rejects when the broker does not confirm, so that the transaction rolls back.
   */
  grant: (db: Db, identity: DeviceIdentity, secret: string) => Promise<void>;
  /** Deletes the serials' accounts the database no longer backs (which disconnects them); never rejects. */
  revoke: (serials: string[]) => Promise<void>;
  counters: AccountCounters;
};

/**
 * The services' way to the devices. Messaging starts after the HTTP app is built (server.ts), and
 * may be absent (HTTP-only tests): until a publisher is attached nothing is sent, and commands stay
 * due in the database for the next attempt.
 */
export class DeviceLink {
  private publisher: DevicePublisher | undefined;
  private accounts: DeviceAccounts | undefined;
  private countersOf: DeviceCounters | undefined;

  attach(publisher: DevicePublisher, counters: DeviceCounters, accounts?: DeviceAccounts): void {
    this.publisher = publisher;
    this.countersOf = counters;
    this.accounts = accounts;
  }

  detach(): void {
    this.publisher = undefined;
    this.accounts = undefined;
  }

  /** null until messaging has started (HTTP-only tests). */
  get counters(): DeviceCounters | null {
    return this.countersOf ?? null;
  }

  get online(): boolean {
    return this.publisher !== undefined;
  }

  /** Publishes one protocol message to one device; false when no broker is attached. */
  send(serial: string, kind: TopicKind, message: object): boolean {
    if (!this.publisher) return false;
    this.publisher.publish(deviceTopic(serial, kind), encodePayload(message), {
      qos: TOPIC_QOS[kind],
      retain: TOPIC_RETAINED[kind],
    });
    return true;
  }

  /**
   * Gives the identity its broker account, when the server manages accounts on the broker (with
   * the embedded broker, or an external one without dynamic security, the broker reads the database
   * or the operator's files: nothing to do). Call it in the transaction that stores the secret's
   * hash: a broker that does not confirm fails the call with 503, and the transaction rolls back.
   */
  async grant(db: Db, identity: DeviceIdentity, secret: string): Promise<void> {
    if (!this.accounts) return;
    try {
      await this.accounts.grant(db, identity, secret);
    } catch {
      // Nothing was stored: trying again later will do, as readiness says of a broker away.
      throw new AppError('errors.service_unavailable', { parts: 'broker' });
    }
  }

  /**
   * After a committed revocation: closes the device's connections on the embedded broker and
   * deletes its accounts on a managed external one (deletion disconnects it there).
   */
  disconnect(serial: string): void {
    this.disconnectAll([serial]);
  }

  disconnectAll(serials: string[]): void {
    if (serials.length === 0) return;
    for (const serial of serials) this.publisher?.disconnect(serial);
    void this.accounts?.revoke(serials);
  }

  /** After a committed refusal: the device in pairing mode is told, not cut off; its accounts go. */
  revokeAccounts(serial: string): void {
    void this.accounts?.revoke([serial]);
  }
}

/** How a device proves who it is: the secret checks live in the flowboxes domain. */
export type DeviceAuthenticator = (
  identity: DeviceIdentity,
  secret: string,
) => Promise<'ok' | 'unknown' | 'wrong'>;
