// The outside services' endpoints in the environment: the model gateway and per-provider endpoints, the headers
// sent to them, the fallback models, and the OTLP traces collector.
import { ENGINE_MODEL_IDS, type ModelProviderName } from '../constants.ts';
import { ConfigError, type Env, str, url } from './parse.ts';

/** The env prefix of an LLM endpoint: LLM for the gateway, LLM_OPENAI ... LLM_META_LLAMA per provider. */
export const llmEnvPrefix = (provider?: ModelProviderName) =>
  provider === undefined ? 'LLM' : `LLM_${provider.toUpperCase().replace(/-/g, '_')}`;

export function llmEndpoint(env: Env, prefix: string): ModelEndpoint | undefined {
  const baseUrl = url(env, `${prefix}_BASE_URL`, ['http:', 'https:']);
  const apiKey = str(env, `${prefix}_API_KEY`);
  // Never echo the key: it is a secret. Header-unsafe characters would otherwise fail every call.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError(`${prefix}_API_KEY must be printable ASCII without spaces`);
  }
  if (baseUrl === undefined) {
    if (apiKey !== undefined) {
      throw new ConfigError(
        `${prefix}_API_KEY is set but ${prefix}_BASE_URL is not: name the endpoint the key belongs to (e.g. https://openrouter.ai/api/v1)`,
      );
    }
    return undefined;
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey };
}

/** A value sent as an HTTP header: printable ASCII, at most 100 characters. */
export function headerText(env: Env, name: string): string | undefined {
  const value = str(env, name);
  if (value !== undefined && !/^[\x20-\x7e]{1,100}$/.test(value)) {
    throw new ConfigError(`${name} must be printable ASCII, at most 100 characters`);
  }
  return value;
}

/** LLM_FALLBACK_MODELS: a comma-separated list of engine model ids, at most 3, each known. */
export function fallbackModels(env: Env): (typeof ENGINE_MODEL_IDS)[number][] {
  const raw = str(env, 'LLM_FALLBACK_MODELS');
  if (raw === undefined) return [];
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  if (ids.length > 3) throw new ConfigError(`LLM_FALLBACK_MODELS names ${ids.length} models; at most 3`);
  for (const id of ids) {
    if (!(ENGINE_MODEL_IDS as readonly string[]).includes(id)) {
      throw new ConfigError(`LLM_FALLBACK_MODELS: unknown model ${id} (one of ${ENGINE_MODEL_IDS.join(', ')})`);
    }
  }
  return ids as (typeof ENGINE_MODEL_IDS)[number][];
}

/** LLM_GATEWAY_KIND, else `openrouter` when LLM_BASE_URL's host is openrouter.ai. */
export function gatewayKind(env: Env): 'openrouter' | 'generic' {
  const kind = str(env, 'LLM_GATEWAY_KIND');
  if (kind === 'openrouter' || kind === 'generic') return kind;
  if (kind !== undefined) throw new ConfigError(`LLM_GATEWAY_KIND must be openrouter or generic, got ${kind}`);
  const base = str(env, 'LLM_BASE_URL');
  try {
    return base && /(^|\.)openrouter\.ai$/.test(new URL(base).hostname) ? 'openrouter' : 'generic';
  } catch {
    return 'generic';
  }
}

/** The OTLP/HTTP traces URL of the standard variables: the traces endpoint as given, or the base one + /v1/traces. */
export function otlpTracesUrl(env: Env): string | undefined {
  const traces = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', ['http:', 'https:']);
  if (traces) return traces;
  const base = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']);
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** An OpenAI-compatible endpoint: `{baseUrl}/chat/completions`, with `Authorization: Bearer <apiKey>` when set. */
export interface ModelEndpoint {
  baseUrl: string;
  apiKey?: string | undefined;
}
