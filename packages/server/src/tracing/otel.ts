import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind as OtelKind,
  SpanStatusCode,
  trace,
  type Span as OtelSpan,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Span, SpanAttributes, SpanKind, Tracing, TracingConfig } from './tracing.ts';

/*
 * The OpenTelemetry SDK behind `Tracing`, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (tracing.ts). Spans are made by hand where the server does the work (docs/decisions.md "Traces by
 * hand"): no global provider, no auto-instrumentation, no OpenTelemetry context manager; the current
 * span is kept in one AsyncLocalStorage of our own and each child names its parent explicitly.
 */

const KINDS: Record<SpanKind, OtelKind> = {
  server: OtelKind.SERVER,
  client: OtelKind.CLIENT,
  consumer: OtelKind.CONSUMER,
  internal: OtelKind.INTERNAL,
};

class OtelSpanHandle implements Span {
  constructor(readonly span: OtelSpan) {}

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(attributes);
  }

  fail(error?: unknown): void {
    if (error instanceof Error) this.span.recordException(error);
    this.span.setStatus({ code: SpanStatusCode.ERROR });
  }

  end(): void {
    this.span.end();
  }
}

export function openTelemetryTracing(config: TracingConfig): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(config.resource),
    // Spans are sent in batches off the request path (every 5 s or 512 spans), never one by one.
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: `${config.endpoint}/v1/traces`, headers: config.headers }),
      ),
    ],
  });
  const tracer = provider.getTracer('flowbox-manager');
  const current = new AsyncLocalStorage<OtelSpanHandle>();
  return {
    start(name, options) {
      const parent = options.root ? undefined : current.getStore();
      const context = parent ? trace.setSpan(ROOT_CONTEXT, parent.span) : ROOT_CONTEXT;
      return new OtelSpanHandle(
        tracer.startSpan(name, { kind: KINDS[options.kind], attributes: options.attributes }, context),
      );
    },
    current: () => current.getStore(),
    within(span, work) {
      if (!(span instanceof OtelSpanHandle)) throw new TypeError('not a span of this tracer');
      return current.run(span, work);
    },
    shutdown: () => provider.shutdown(),
  };
}
