import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import type { App } from '../http/types.ts';
import { startEmbeddedBroker, type EmbeddedBroker } from '../mqtt/broker.ts';
import { freePort, openTestDatabase, testConfig } from '../test/harness.ts';

/*
 * Connection floods and slow clients on both listeners (issue #13 items 5 and 6, docs/reliability.md
 * "Connection floods and timeouts"), at a small scale: one address holding more connections than
 * its cap, clients that announce a huge packet, send nothing, or trickle a request, while another
 * address (127.0.0.2: the loopback range is this machine's) is still served.
 */
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const CAP = 10;

/** Opens a TCP connection from `localAddress`; resolves once connected. */
function open(port: number, localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
    // Flowing: a paused socket would not see the server's end until its data was read.
    socket.resume();
  });
}

/** Resolves with how long the socket stayed open once `closed` (or rejects after `ms`). */
function closedWithin(socket: Socket, ms: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    if (socket.destroyed || socket.closed) return resolve(0);
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
    socket.on('error', () => undefined);
  });
}

describe('the embedded broker facing hostile connections', () => {
  let broker: EmbeddedBroker;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    port = await freePort();
    broker = await startEmbeddedBroker(port, '127.0.0.1', quiet, async () => 'unknown', undefined, {
      maxConnectionsPerAddress: CAP,
      connectTimeoutMs: 500,
      idleTimeoutMs: 1000,
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await broker.close();
  });

  /**
   * Whether the broker answers a CONNECT sent from `localAddress` (a CONNACK refusing these
   * credentials is an answer): mqtt.js cannot choose its local address, so the packet is written here.
   */
  async function answers(localAddress: string): Promise<boolean> {
    const socket = await open(port, localAddress);
    sockets.push(socket);
    const field = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      return Buffer.concat([Buffer.from([bytes.length >> 8, bytes.length & 0xff]), bytes]);
    };
    // MQTT 3.1.1 CONNECT: protocol name and level, flags (user name, password, clean session), keep-alive 60 s.
    const body = Buffer.concat([
      field('MQTT'),
      Buffer.from([4, 0xc2, 0, 60]),
      field('FB-NOBODY'),
      field('FB-NOBODY'),
      field('wrong'),
    ]);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 2000);
      socket.once('data', (data: Buffer) => {
        clearTimeout(timer);
        resolve(data[0] === 0x20);
      });
      socket.once('close', () => resolve(false));
      socket.write(Buffer.concat([Buffer.from([0x10, body.length]), body]));
    });
  }

  it('closes a connection announcing a 250 MB CONNECT before buffering it', async () => {
    const socket = await open(port);
    sockets.push(socket);
    // CONNECT, remaining length 250,000,000 (variable-length integer), then a first 64 KiB of it.
    socket.write(Buffer.from([0x10, 0x80, 0xe5, 0x9a, 0x77]));
    socket.write(Buffer.alloc(64 * 1024, 0x41));
    await closedWithin(socket, 2000);
    expect(broker.counters.closed_packet_too_large).toBeGreaterThanOrEqual(1);
    expect(await answers('127.0.0.1')).toBe(true);
  });

  it('closes a connection that sends no CONNECT within the connect timeout', async () => {
    const socket = await open(port);
    sockets.push(socket);
    const openFor = await closedWithin(socket, 3000);
    expect(openFor).toBeGreaterThanOrEqual(400);
    expect(broker.counters.closed_connect_timeout).toBeGreaterThanOrEqual(1);
  });

  it('refuses one address beyond its cap of connections, and still serves another address', async () => {
    const flood = await Promise.all(Array.from({ length: CAP * 3 }, () => open(port)));
    sockets.push(...flood);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(flood.filter((s) => !s.destroyed && !s.closed).length).toBeLessThanOrEqual(CAP);
    expect(broker.counters.refused_connection_limit).toBeGreaterThanOrEqual(CAP * 2);
    expect(await answers('127.0.0.2')).toBe(true);
    for (const socket of flood) socket.destroy();
  });
});

describe('the HTTP server facing hostile connections', () => {
  let app: App;
  let port: number;
  let close: () => Promise<void>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const database = await openTestDatabase();
    ({ app } = await buildApp({
      config: { ...testConfig(), httpMaxConnectionsPerAddress: CAP },
      db: database.db,
      logger: false,
      httpTimeouts: { headersMs: 500, requestMs: 1000, idleMs: 1500 },
    }));
    port = await freePort();
    await app.listen({ port, host: '127.0.0.1' });
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await close();
  });

  /** The status of GET /v1/health/live from `localAddress`, or the error's code. */
  function live(localAddress: string): Promise<number | string> {
    return new Promise((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/v1/health/live', localAddress, agent: false },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      req.end();
    });
  }

  it('closes a request whose headers trickle in past the headers timeout', async () => {
    const socket = await open(port);
    sockets.push(socket);
    socket.write('GET /v1/health/live HTTP/1.1\r\nHost: flowbox.test\r\n');
    const openFor = await closedWithin(socket, 8000);
    expect(openFor).toBeGreaterThanOrEqual(400);
  });

  it('closes a connection that stays silent past the idle timeout', async () => {
    const socket = await open(port);
    sockets.push(socket);
    await closedWithin(socket, 8000);
  });

  it('refuses one address beyond its cap of connections, and still serves another address', async () => {
    const flood = await Promise.all(Array.from({ length: CAP * 3 }, () => open(port)));
    sockets.push(...flood);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(flood.filter((s) => !s.destroyed && !s.closed).length).toBeLessThanOrEqual(CAP);
    expect(await live('127.0.0.2')).toBe(200);
    expect(await live('127.0.0.1')).not.toBe(200);
    for (const socket of flood) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await live('127.0.0.1')).toBe(200);
  });
});
