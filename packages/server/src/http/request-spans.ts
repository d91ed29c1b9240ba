import type { FastifyRequest } from 'fastify';
import type { Span, Tracing } from '../tracing/tracing.ts';
import { routeOf } from './metrics.ts';
import type { App } from './types.ts';

/**
 * A server span for each request (docs/operations.md "Tracing"), named by its method and route
 * pattern (`GET /v1/customers/:customerId`, never the URL with its ids and query), with its status,
 * request id and user; the queries it sends are its children.
 *
 * The span is made current around the rest of the request's hooks and its handler (the body parsed
 * in between, even when it arrives after the headers: tracing.test.ts sends one so).
 */
export function traceRequests(app: App, tracing: Tracing): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    const span = tracing.start(route === undefined ? request.method : `${request.method} ${route}`, {
      kind: 'server',
      root: true,
      attributes: {
        'http.request.method': request.method,
        'http.route': routeOf(request),
        'flowbox.request_id': request.id,
      },
    });
    spans.set(request, span);
    tracing.within(span, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    span.setAttributes({
      'http.response.status_code': reply.statusCode,
      ...(request.actor ? { 'user.id': request.actor.id } : {}),
    });
    if (reply.statusCode >= 500) span.fail();
    span.end();
  });
  // A client gone before its answer: the span ends there, marked so.
  app.addHook('onRequestAbort', async (request) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    span.setAttributes({ 'flowbox.request_aborted': true });
    span.end();
  });
}
