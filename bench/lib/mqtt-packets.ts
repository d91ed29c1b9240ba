/*
 * The few MQTT 3.1.1 packets a simulated device needs, written by hand: a load generator on the same
 * cores as the server should cost little per message and per connection (bench/ingest.ts,
 * bench/devices.ts). Only what a flowbox sends and receives; nothing is validated beyond framing.
 */

/** Bytes of an MQTT "remaining length" (a varint of 7 bits a byte). */
export function remainingLength(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

/** A UTF-8 string as MQTT writes it: two length bytes, then the bytes. */
export function mqttString(text: string | Buffer): Buffer {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

const packet = (first: number, body: Buffer) =>
  Buffer.concat([Buffer.from([first, ...remainingLength(body.length)]), body]);

export type Will = { topic: string; payload: Buffer; qos: 0 | 1; retain: boolean };

/** CONNECT, protocol level 4 (3.1.1), with user name and password and, if given, a last will. */
export function connectPacket(options: {
  clientId: string;
  username: string;
  password: string;
  keepAliveS: number;
  clean: boolean;
  will?: Will;
}): Buffer {
  const { will } = options;
  const flags =
    0b1100_0000 |
    (will ? 0b100 | (will.qos << 3) | (will.retain ? 0b10_0000 : 0) : 0) |
    (options.clean ? 0b10 : 0);
  return packet(
    0x10,
    Buffer.concat([
      mqttString('MQTT'),
      Buffer.from([4, flags, options.keepAliveS >> 8, options.keepAliveS & 0xff]),
      mqttString(options.clientId),
      ...(will ? [mqttString(will.topic), mqttString(will.payload)] : []),
      mqttString(options.username),
      mqttString(options.password),
    ]),
  );
}

/** SUBSCRIBE of several filters in one packet. */
export function subscribePacket(id: number, filters: { topic: string; qos: 0 | 1 }[]): Buffer {
  return packet(
    0x82,
    Buffer.concat([
      Buffer.from([id >> 8, id & 0xff]),
      ...filters.map((f) => Buffer.concat([mqttString(f.topic), Buffer.from([f.qos])])),
    ]),
  );
}

/** PUBLISH; `id` is the packet id of a QoS 1 message (ignored at QoS 0). */
export function publishPacket(options: {
  topic: Buffer;
  payload: Buffer;
  qos: 0 | 1;
  retain?: boolean;
  id?: number;
}): Buffer {
  const { qos, id = 0 } = options;
  return packet(
    0x30 | (qos << 1) | (options.retain ? 1 : 0),
    Buffer.concat([options.topic, ...(qos > 0 ? [Buffer.from([id >> 8, id & 0xff])] : []), options.payload]),
  );
}

export const pubackPacket = (id: number) => Buffer.from([0x40, 2, id >> 8, id & 0xff]);

/** Packet types (the first byte's high nibble) a device reads. */
export const CONNACK = 2;
export const PUBLISH = 3;
export const PUBACK = 4;
export const SUBACK = 9;

/**
 * Cuts a TCP stream into packets: `push` each chunk read, and `onPacket` gets each whole packet's
 * first byte and body (what follows the remaining length); a packet split across reads waits for
 * the rest.
 */
export class PacketReader {
  private pending: Buffer | undefined;

  push(chunk: Buffer, onPacket: (first: number, body: Buffer) => void): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < data.length) {
      let length = 0;
      let shift = 0;
      let p = at + 1;
      for (; p < data.length; p++) {
        length += (data[p]! & 0x7f) << shift;
        shift += 7;
        if ((data[p]! & 0x80) === 0) break;
      }
      if (p >= data.length || p + 1 + length > data.length) break;
      onPacket(data[at]!, data.subarray(p + 1, p + 1 + length));
      at = p + 1 + length;
    }
    if (at < data.length) this.pending = data.subarray(at);
  }

  clear(): void {
    this.pending = undefined;
  }
}

/** A received PUBLISH read: its topic, packet id (QoS 1) and payload. */
export function readPublish(first: number, body: Buffer): { topic: string; id: number; payload: Buffer } {
  const topicLength = (body[0]! << 8) | body[1]!;
  const topic = body.toString('utf8', 2, 2 + topicLength);
  const qos = (first >> 1) & 3;
  const id = qos > 0 ? (body[2 + topicLength]! << 8) | body[3 + topicLength]! : 0;
  return { topic, id, payload: body.subarray(2 + topicLength + (qos > 0 ? 2 : 0)) };
}
