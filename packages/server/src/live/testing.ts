import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveMessage } from '@flowbox/shared';
import type { ApiClient, TestApp } from '../test/harness.ts';

/*
 * Test fixtures for the live channel (DESIGN.md §6): the stream read over a real connection, as a
 * browser's EventSource reads it (inject answers only once a response has ended, and the stream
 * never ends).
 */

/** Starts the app on a free local port; its address, for the streams opened on it. */
export async function listenLocally(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

/** The response of a GET of the live stream with this ticket, once its head is in. */
export function requestLiveStream(base: string, ticket: string): Promise<IncomingMessage> {
  return new Promise<IncomingMessage>((resolve, reject) =>
    get(`${base}/v1/live/stream?ticket=${encodeURIComponent(ticket)}`, resolve).on('error', reject),
  );
}

export type LiveStream<M extends LiveMessage = LiveMessage> = {
  response: IncomingMessage;
  /** The messages received so far, in order (of the type asked for only, when one was). */
  received: M[];
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
  const { ticket } = (await client.post('/v1/live/ticket')).json() as { ticket: string };
  const received: Extract<LiveMessage, { type: T }>[] = [];
  const response = await requestLiveStream(base, ticket);
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
  return { response, received, close: () => response.destroy() };
}

/** The serials of the `flowbox` messages among these. */
export const serialsIn = (messages: LiveMessage[]) =>
  messages.flatMap((m) => (m.type === 'flowbox' ? [m.flowbox.serial] : []));
