import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { App } from './types.ts';

/** The header a client or a proxy names its request by, and this server's answers echo. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a given request id may hold (docs/operations.md "Request ids"): it is written into log lines,
 * an answer header and a trace attribute, so anything longer or with other characters (spaces,
 * quotes, line breaks that would forge a log line) is replaced by an id of our own.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's id (Fastify's `genReqId`): the client's or proxy's `X-Request-Id` when it is a safe
 * token, so that one request can be followed through the proxy's log and ours; else a random UUID,
 * unique across instances (Fastify's default counter restarts at each start and repeats on every
 * instance).
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request, errors and 404s included, so a user can quote it. */
export function echoRequestId(app: App): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
