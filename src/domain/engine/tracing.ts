// The spans of a decision round (docs/operations.md "Traces"): one per round, a child per phase, and under each
// phase one per model call (models/openai.ts), named and attributed after OpenTelemetry's GenAI semantic
// conventions. Parents are passed explicitly, so no global context manager is needed.
import { ROOT_CONTEXT, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';

/** The round's span: `invoke_agent decision-round`, with the company, the cycle and the trigger. */
export function roundSpan(
  tracer: Tracer,
  round: { id: string; companyId: string; cycle: number; trigger: string },
): Span {
  return tracer.startSpan('invoke_agent decision-round', {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'decision-round',
      'ai_economy.round.id': round.id,
      'ai_economy.company.id': round.companyId,
      'ai_economy.round.cycle': round.cycle,
      'ai_economy.round.trigger': round.trigger,
    },
  });
}

/** A phase of the round, as a child of its span. */
export function phaseSpan(tracer: Tracer, parent: Span, phase: string): Span {
  return tracer.startSpan(
    `phase ${phase}`,
    { kind: SpanKind.INTERNAL, attributes: { 'ai_economy.phase': phase } },
    trace.setSpan(ROOT_CONTEXT, parent),
  );
}
