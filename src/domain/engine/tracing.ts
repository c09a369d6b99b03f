// The spans of a decision round (docs/operations.md "Traces"): one per round, a child per phase, and under each
// phase one per model call (models/call-span.ts), named and attributed after OpenTelemetry's GenAI semantic
// conventions. Parents are passed explicitly, so no global context manager is needed.
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';

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

/**
 * A tool's run, as a child of its phase: `execute_tool <tool>` (GenAI conventions), with the tool, its kind (a chain
 * or market read, an on-chain action, the CRO's veto), the agent, the company and the round. `end` closes it with the
 * outcome: `executed`, `refused` (a limit, the budget, a veto: `vetoed`) or `failed`, an error status for a failure.
 */
export function toolSpan(
  tracer: Tracer,
  parent: Span | undefined,
  tool: { name: string; kind: string; description?: string },
  who: { role: string; companyId: string; roundId?: string | undefined },
) {
  const span = tracer.startSpan(
    `execute_tool ${tool.name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': tool.name,
        'gen_ai.tool.type': 'function',
        'ai_economy.tool.kind': tool.kind,
        'ai_economy.agent.role': who.role,
        'ai_economy.company.id': who.companyId,
        ...(who.roundId !== undefined && { 'gen_ai.conversation.id': who.roundId }),
      },
    },
    parent ? trace.setSpan(ROOT_CONTEXT, parent) : undefined,
  );
  return {
    span,
    end(outcome: 'executed' | 'refused' | 'vetoed' | 'failed' | 'recorded', error?: string) {
      span.setAttribute('ai_economy.tool.outcome', outcome);
      if (outcome === 'failed') {
        span.setAttribute('error.type', 'tool_error');
        span.setStatus({ code: SpanStatusCode.ERROR, ...(error !== undefined && { message: error.slice(0, 300) }) });
      }
      span.end();
    },
  };
}

/** The outcome of an action's line (`ROLE tool: refused: ...`, `...: failed: ...`, else executed). */
export function outcomeOfLine(line: string): 'executed' | 'refused' | 'vetoed' | 'failed' {
  if (/^\S+ \S+: refused: vetoed\b/.test(line)) return 'vetoed';
  if (/^\S+ \S+: refused:/.test(line)) return 'refused';
  if (/^\S+ \S+: failed:/.test(line)) return 'failed';
  return 'executed';
}
