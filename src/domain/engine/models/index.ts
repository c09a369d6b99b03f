// The engine's model provider, chosen from the configuration: the OpenAI-compatible HTTP client when any LLM
// endpoint is configured, else the built-in deterministic model. A model that no configured endpoint serves (its
// provider has no endpoint and there is no default gateway) is answered by the built-in model, with one warning
// per provider, so a deployment that configures only some providers still runs every preset.
import type { Tracer } from '@opentelemetry/api';
import type { Config } from '../../../config.ts';
import { MODEL_PROVIDERS } from '../../../constants.ts';
import { createBuiltinProvider } from './builtin/provider.ts';
import { createOpenAiCompatibleProvider } from './openai.ts';
import type { ModelLogger, ModelProvider } from './types.ts';

export type ModelConfig = Pick<
  Config,
  'llmGateway' | 'llmEndpoints' | 'llmTimeoutMs' | 'llmMaxRetries' | 'llmMaxInFlight'
> &
  Partial<
    Pick<
      Config,
      'llmGatewayKind' | 'llmAppReferer' | 'llmAppTitle' | 'llmPrices' | 'llmStream' | 'llmSpread' | 'llmFallbackModels'
    >
  >;

export function hasLlmEndpoint(config: ModelConfig): boolean {
  return config.llmGateway !== undefined || MODEL_PROVIDERS.some((p) => config.llmEndpoints[p] !== undefined);
}

export function createModelProvider(
  config: ModelConfig,
  options: { log?: ModelLogger; tracer?: Tracer } = {},
): ModelProvider {
  const builtin = createBuiltinProvider();
  if (!hasLlmEndpoint(config)) {
    options.log?.info({ provider: builtin.kind }, 'no LLM endpoint configured: the built-in model answers every phase');
    return builtin;
  }
  const configured = [
    ...(config.llmGateway ? ['gateway'] : []),
    ...MODEL_PROVIDERS.filter((p) => config.llmEndpoints[p] !== undefined),
  ];
  // Names only, never URLs or keys: a base URL may carry credentials of its own.
  options.log?.info({ endpoints: configured }, 'LLM endpoints configured');
  return createOpenAiCompatibleProvider({
    gateway: config.llmGateway,
    endpoints: config.llmEndpoints,
    timeoutMs: config.llmTimeoutMs,
    maxRetries: config.llmMaxRetries,
    maxInFlight: config.llmMaxInFlight,
    gatewayKind: config.llmGatewayKind ?? 'generic',
    appReferer: config.llmAppReferer,
    appTitle: config.llmAppTitle,
    prices: config.llmPrices,
    stream: config.llmStream,
    spread: config.llmSpread ? { models: config.llmFallbackModels ?? [] } : undefined,
    fallback: builtin,
    tracer: options.tracer,
    log: options.log,
  });
}

export { createBuiltinProvider } from './builtin/provider.ts';
export * from './catalog.ts';
export { createOpenAiCompatibleProvider } from './openai.ts';
export { routeOf } from './route.ts';
export * from './types.ts';
