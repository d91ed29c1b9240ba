/*
 * Optional OpenTelemetry traces (docs/operations.md "Tracing", docs/decisions.md "Traces by hand").
 * This file is all the rest of the server sees: it holds no OpenTelemetry import, so that with
 * tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT) no part of the SDK is ever loaded; `otel.ts` is
 * imported only when it is configured.
 */

/** What tracing needs from the configuration (config.ts). */
export type TracingConfig = {
  /** Where traces go, as OTLP/HTTP JSON: the collector's base URL; traces are posted to `/v1/traces`. */
  endpoint: string;
  /** Headers sent with each export (a collector's API key). */
  headers: Record<string, string>;
  /** Resource attributes: `service.name` and the operator's own. */
  resource: Record<string, string>;
};

export type SpanAttributes = Record<string, string | number | boolean>;

/** What a span records of the work it covers (OpenTelemetry's kinds). */
export type SpanKind = 'server' | 'client' | 'consumer' | 'internal';

/** A span in progress. */
export interface Span {
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed (a 5xx answer, a query or a batch that threw). */
  fail(error?: unknown): void;
  end(): void;
}

export type SpanOptions = {
  kind: SpanKind;
  attributes?: SpanAttributes;
  /** A span of its own trace (a request, a batch): the work that opens it is not part of another. */
  root?: boolean;
};

/** The tracer the server's parts are handed when tracing is on; undefined when it is off. */
export interface Tracing {
  /** A new span: a child of the current one (see `within`) unless `root`. */
  start(name: string, options: SpanOptions): Span;
  /** The span whose work is running here, if any. */
  current(): Span | undefined;
  /** Runs `work` with `span` current: spans started inside it, however deep, are its children. */
  within<T>(span: Span, work: () => T): T;
  /** Exports the spans still buffered and stops (the server's close path). */
  shutdown(): Promise<void>;
}

/** Starts tracing when configured; without it, nothing is loaded and the server traces nothing. */
export async function startTracing(config: TracingConfig | undefined): Promise<Tracing | undefined> {
  if (config === undefined) return undefined;
  const { openTelemetryTracing } = await import('./otel.ts');
  return openTelemetryTracing(config);
}

/** Runs `work` in a new span, current within it, ended when it settles and failed when it throws. */
export async function inSpan<T>(
  tracing: Tracing,
  name: string,
  options: SpanOptions,
  work: () => Promise<T>,
): Promise<T> {
  const span = tracing.start(name, options);
  try {
    return await tracing.within(span, work);
  } catch (error) {
    span.fail(error);
    throw error;
  } finally {
    span.end();
  }
}
