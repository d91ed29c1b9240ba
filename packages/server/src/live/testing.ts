import { get, type IncomingMessage } from 'node:http';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { LiveMessage } from '@flowbox/shared';
import type { ApiClient, TestApp } from '../test/harness.ts';

/*
 * Test fixtures for the live channel (DESIGN.md §6): the stream read over a real connection, as a
 * browser's EventSource reads it (inject answers only once a response has ended, and the stream
 * never ends).
 */

/** Starts the app on a free local port; its address, for the streams opened on it. */
export async function listenLocally(t: Pick<TestApp, 'app'>): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** The response of a GET of the live stream with this ticket, once its head is in. */
export function requestLiveStream(
  base: string,
  ticket: string,
  headers: Record<string, string> = {},
): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) =>
    get(`${base}/v1/live/stream?ticket=${encodeURIComponent(ticket)}`, { headers }, resolve).on(
      'error',
      reject,
    ),
  );
}

/** A ticket for the live stream, asked of the API as the browser asks it. */
export async function liveTicket(client: ApiClient): Promise<string> {
  const response = await client.post('/v1/live/ticket');
  if (response.statusCode !== 200) throw new Error(`no ticket: ${response.body}`);
  return (response.json() as { ticket: string }).ticket;
}

/** The whole body of a response that ends (a refusal), as JSON. */
export async function jsonBody(response: IncomingMessage): Promise<unknown> {
  let body = '';
  response.setEncoding('utf8');
  for await (const chunk of response) body += chunk as string;
  return JSON.parse(body);
}

export type LiveStream<M extends LiveMessage = LiveMessage> = {
  response: IncomingMessage;
  /** The messages received so far, in order (of the type asked for only, when one was). */
  received: M[];
  /** Whether the server has ended the stream. */
  ended: () => boolean;
  close: () => void;
};

/**
 * The live stream as this user's browser opens it: a ticket asked of the API, then the stream at the
 * app's address, its messages collected as they come; only those of type `only` when given.
 */
export async function openLiveStream<T extends LiveMessage['type'] = LiveMessage['type']>(
  base: string,
  client: ApiClient,
  only?: T,
): Promise<LiveStream<Extract<LiveMessage, { type: T }>>> {
  const ticket = await liveTicket(client);
  const received: Extract<LiveMessage, { type: T }>[] = [];
  const response = await requestLiveStream(base, ticket);
  let ended = false;
  response.on('end', () => (ended = true));
  response.on('close', () => (ended = true));
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split('\n').find((line) => line.startsWith('data: '));
      const message = data ? (JSON.parse(data.slice(6)) as LiveMessage) : null;
      if (message && (only === undefined || message.type === only))
        received.push(message as Extract<LiveMessage, { type: T }>);
    }
  });
  return { response, received, ended: () => ended, close: () => response.destroy() };
}

/** The serials of the `flowbox` messages among these. */
export const serialsIn = (messages: LiveMessage[]) =>
  messages.flatMap((m) => (m.type === 'flowbox' ? [m.flowbox.serial] : []));

/** A TCP proxy to PostgreSQL that can freeze the live updates' listening connections. */
export type FreezingProxy = {
  /** The database's URL through the proxy. */
  url: string;
  /**
   * From now on, until `thaw`, the listening connections (those that sent LISTEN), open or opened
   * later, forward nothing either way and stay open: no FIN, no RST, as a stalled network path.
   */
  freezeListening: () => void;
  thaw: () => void;
  close: () => Promise<void>;
};

/** Starts a `FreezingProxy` in front of the database at `databaseUrl`. */
export async function freezingProxy(databaseUrl: string): Promise<FreezingProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    let listening = false;
    const stalled = () => frozen && listening;
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('LISTEN ')) listening = true;
      if (!stalled()) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!stalled()) client.write(chunk);
    });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        sockets.delete(socket);
        if (!stalled()) other.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    freezeListening: () => (frozen = true),
    thaw: () => (frozen = false),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
