import { deviceTopic, encodePayload, TOPIC_QOS, TOPIC_RETAINED, type TopicKind } from '@flowbox/shared';
import type { IngestCounters } from '../flowboxes/ingest.ts';
import type { WriterCounters } from '../telemetry/writer.ts';
import type { BrokerCounters } from './broker.ts';

/** What `/v1/metrics` shows: ingest drops by reason, the telemetry writer, the embedded broker's refusals. */
export type DeviceCounters = {
  ingest: IngestCounters;
  telemetry: WriterCounters;
  broker: BrokerCounters | null;
};

/** What the server needs of a broker connection to reach devices. */
export type DevicePublisher = {
  /** Hands the message to the MQTT client without waiting for the broker (QoS 1 delivery is the client's). */
  publish: (topic: string, payload: string, options: { qos: 1; retain: boolean }) => void;
  /** Closes the device's current connection, when the broker is ours (a revoked credential). */
  disconnect: (serial: string) => void;
};

/**
 * The services' way to the devices. Messaging starts after the HTTP app is built (server.ts), and
 * may be absent (HTTP-only tests): until a publisher is attached nothing is sent, and commands stay
 * due in the database for the next attempt.
 */
export class DeviceLink {
  private publisher: DevicePublisher | undefined;
  private countersOf: DeviceCounters | undefined;

  attach(publisher: DevicePublisher, counters: DeviceCounters): void {
    this.publisher = publisher;
    this.countersOf = counters;
  }

  detach(): void {
    this.publisher = undefined;
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

  disconnect(serial: string): void {
    this.publisher?.disconnect(serial);
  }
}
