// The span of one model call, retries included, named and attributed after OpenTelemetry's GenAI semantic
// conventions (`chat {model}`, kind CLIENT): what was asked when it starts, what was billed and answered, or why it
// failed, when it ends.
import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import { MAX_TOKENS_DEFAULT, type ModelRoute } from './attempt.ts';
import { providerOf } from './catalog.ts';
import { type ChatRequest, type ChatResult, type EngineModelId, ModelError } from './types.ts';

/**
 * `gen_ai.provider.name` as the GenAI conventions register it (`gcp.gemini` for Google's Gemini API), and the gateway
 * when it is the server the call goes to (`openrouter`); a provider the conventions do not list keeps its own name.
 */
export function providerNameOf(model: EngineModelId, via: ModelRoute['via'], gatewayKind?: 'openrouter' | 'generic') {
  if (via === 'gateway' && gatewayKind === 'openrouter') return 'openrouter';
  const provider = providerOf(model);
  return REGISTERED_PROVIDER_NAMES[provider] ?? provider;
}

const REGISTERED_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  deepseek: 'deepseek',
  'meta-llama': 'meta',
  mistralai: 'mistral_ai',
  'x-ai': 'x_ai',
  cohere: 'cohere',
  perplexity: 'perplexity',
};
/** The span of one model call, started before its first attempt. */
export function startCallSpan(
  tracer: Tracer,
  route: ModelRoute,
  request: ChatRequest,
  gatewayKind: 'openrouter' | 'generic' | undefined,
): Span {
  let server: URL | undefined;
  try {
    server = new URL(route.endpoint.baseUrl);
  } catch {
    server = undefined;
  }
  const parent = request.parentSpan ? trace.setSpan(ROOT_CONTEXT, request.parentSpan) : undefined;
  return tracer.startSpan(
    `chat ${request.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': providerNameOf(request.model, route.via, gatewayKind),
        'gen_ai.request.model': request.model,
        'gen_ai.request.max_tokens': request.maxTokens ?? MAX_TOKENS_DEFAULT,
        'ai_economy.route': route.via,
        ...(request.conversationId !== undefined && { 'gen_ai.conversation.id': request.conversationId }),
        ...(request.user !== undefined && { 'ai_economy.company.id': request.user }),
        ...(request.agentRole !== undefined && {
          'gen_ai.agent.name': request.agentRole,
          'ai_economy.agent.role': request.agentRole,
        }),
        ...(request.reasoning !== undefined && { 'ai_economy.request.reasoning_effort': request.reasoning }),
        ...(server && { 'server.address': server.hostname }),
        ...(server?.port && { 'server.port': Number(server.port) }),
      },
    },
    parent,
  );
}

/** The answer's model, usage, cost and timings on the call's span. */
export function recordAnswer(span: Span, result: ChatResult): void {
  span.setAttributes({
    'gen_ai.response.model': result.model,
    'gen_ai.usage.input_tokens': result.promptTokens,
    'gen_ai.usage.output_tokens': result.completionTokens,
    'ai_economy.cost_usd': result.cost,
    'gen_ai.response.finish_reasons': [result.finishReason ?? 'stop'],
    'ai_economy.usage_estimated': result.usageEstimated === true,
    ...(result.responseId !== undefined && { 'gen_ai.response.id': result.responseId }),
    ...(result.cachedTokens !== undefined && { 'gen_ai.usage.cache_read.input_tokens': result.cachedTokens }),
    ...(result.firstTokenMs !== undefined && { 'ai_economy.time_to_first_token_ms': result.firstTokenMs }),
  });
}

/** Why the call failed on its span, with what its attempts were billed. */
export function recordFailure(span: Span, err: unknown): void {
  // The HTTP status when there was one (the conventions' error.type), else why the call failed.
  const kind = err instanceof ModelError ? (err.status !== undefined ? String(err.status) : err.kind) : 'aborted';
  span.setAttribute('error.type', kind);
  if (err instanceof ModelError && err.spent) {
    span.setAttributes({
      'gen_ai.usage.input_tokens': err.spent.promptTokens,
      'gen_ai.usage.output_tokens': err.spent.completionTokens,
      'ai_economy.cost_usd': err.spent.cost,
    });
  }
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
