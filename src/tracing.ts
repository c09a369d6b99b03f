// Traces (docs/operations.md "Traces"): the decision engine's spans, one per round, phase and model call, exported
// over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. Without one the
// tracer is OpenTelemetry's no-op tracer: spans cost a function call and record nothing. The tracer is handed to
// the domain in the container, never registered globally, so tests give the engine one of their own.

import { randomUUID } from 'node:crypto';
import { type Tracer, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Config } from './config.ts';
import { VERSION } from './version.ts';

/** The instrumentation scope of the engine's spans. */
export const TRACER_NAME = 'ai-economy.engine';

export interface Tracing {
  tracer: Tracer;
  /** Sends what is buffered. */
  flush(): Promise<void>;
  /** Sends what is buffered and stops exporting (at shutdown). */
  shutdown(): Promise<void>;
}

/** This process among the service's replicas (`service.instance.id`): a new UUID each start. */
export const SERVICE_INSTANCE_ID = randomUUID();

/** The no-op tracer, for a process that exports no traces. */
export const noTracing = (): Tracing => ({
  tracer: trace.getTracer(TRACER_NAME),
  flush: async () => {},
  shutdown: async () => {},
});

/** Spans batched to `exporter` (an OTLP exporter in production, an in-memory one in tests). */
export function tracingTo(exporter: SpanExporter, serviceName: string): Tracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': serviceName,
      'service.version': VERSION,
      'service.instance.id': SERVICE_INSTANCE_ID,
    }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  return {
    tracer: provider.getTracer(TRACER_NAME),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * The process's tracing from its configuration. Headers (OTEL_EXPORTER_OTLP_HEADERS, often a collector's key) are
 * read by the exporter from the environment and never logged.
 */
export function createTracing(config: Pick<Config, 'otlpTracesUrl' | 'otelServiceName'>): Tracing {
  if (!config.otlpTracesUrl) return noTracing();
  return tracingTo(new OTLPTraceExporter({ url: config.otlpTracesUrl }), config.otelServiceName);
}
