import type { MqttClient } from 'mqtt';

/**
 * A patch of mqtt.js internals, kept here alone because an mqtt.js upgrade may break it
 * (deferred-acks.test.ts fails then; `mqtt` is pinned to the exact version it was written for).
 *
 * Why: ingest must not acknowledge a device's QoS 1 message before it is stored (a crash in
 * between would lose it; docs/telemetry.md "External broker"). mqtt.js sends the PUBACK of a QoS 1
 * message from the `handleMessage` callback (lib/handlers/publish.js) and reads the next packet only
 * after it, so acknowledging after commit would hold one message per connection and starve the
 * telemetry batches. mqtt.js offers no hook between "message handled" and "PUBACK written"
 * (`customHandleAcks` runs before the message is handled, and can only choose the reason code).
 *
 * What: this wraps the client's private `_sendPacket(packet, cb, ...)`: a PUBACK whose message id
 * was deferred is written once that message's promise resolves, and never if it rejects (the
 * connection is then dropped and the broker redelivers); the callback is called at once, so mqtt.js
 * reads on. Answers null when mqtt.js has no such method (another version): ingest then keeps one
 * message at a time, correct but slower.
 */
export function deferAcks(
  client: MqttClient,
): ((messageId: number, committed: Promise<unknown>) => void) | null {
  const target = client as unknown as { _sendPacket?: PacketSender };
  const send = target._sendPacket?.bind(client);
  if (!send) return null;
  const pending = new Map<number, Promise<unknown>>();
  target._sendPacket = (packet, cb, ...rest) => {
    const committed =
      packet.cmd === 'puback' && packet.messageId !== undefined ? pending.get(packet.messageId) : undefined;
    if (!committed) return send(packet, cb, ...rest);
    pending.delete(packet.messageId!);
    cb?.();
    committed.then(
      () => send(packet, undefined, ...rest),
      () => undefined,
    );
  };
  return (messageId, committed) => {
    committed.catch(() => undefined);
    pending.set(messageId, committed);
  };
}

/** mqtt.js's private `_sendPacket(packet, cb, cbStorePut, noStore)`, as far as the patch uses it. */
type PacketSender = (
  packet: { cmd: string; messageId?: number },
  cb?: (error?: Error) => void,
  ...rest: unknown[]
) => void;
