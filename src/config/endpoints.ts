// The outside services' endpoints in the environment: the model gateway and per-provider endpoints, the headers
// sent to them, the fallback models, the operator's model prices, and the OTLP traces collector.
import { readFileSync } from 'node:fs';
import { ENGINE_CONFIG_KEYS, MODEL_ID_PATTERN, type ModelProviderName } from '../constants.ts';
import { ConfigError, type Env, int, str, url } from './parse.ts';

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

/**
 * LLM_FALLBACK_MODELS: a comma-separated list of model ids, at most 3, each of the right form (any model the
 * configured provider serves; one it does not serve fails its calls and the next is tried).
 */
export function fallbackModels(env: Env): string[] {
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
    if (!MODEL_ID.test(id)) throw new ConfigError(`LLM_FALLBACK_MODELS: ${JSON.stringify(id)} is not a model id`);
  }
  return ids;
}

/** How streamed answers are asked for and bounded (docs/operations.md "Streaming"). */
export interface LlmStreaming {
  /** LLM_STREAM=on: every model call asks for Server-Sent Events. */
  enabled: boolean;
  /** LLM_FIRST_TOKEN_MS: the longest wait for a streamed answer's first token. */
  firstTokenMs: number;
  /** LLM_STREAM_PROGRESS_MS: the longest gap between two tokens of a streamed answer. */
  progressMs: number;
  /** LLM_STREAM_MAX_MS: the longest a streamed attempt may last, however steadily it streams. */
  maxMs: number;
}

export function llmStreaming(env: Env): LlmStreaming {
  const raw = str(env, 'LLM_STREAM') ?? 'off';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`LLM_STREAM must be on or off, got ${raw}`);
  const firstTokenMs = int(env, 'LLM_FIRST_TOKEN_MS', 30_000, 100, 600_000);
  const progressMs = int(env, 'LLM_STREAM_PROGRESS_MS', 15_000, 100, 600_000);
  const maxMs = int(env, 'LLM_STREAM_MAX_MS', 60_000, 100, 600_000);
  if (firstTokenMs > maxMs) {
    throw new ConfigError(`LLM_FIRST_TOKEN_MS (${firstTokenMs}) must be at most LLM_STREAM_MAX_MS (${maxMs})`);
  }
  return { enabled: raw === 'on', firstTokenMs, progressMs, maxMs };
}

/** LLM_SPREAD: `on` spreads a call whose model's lane is full to a model of its fallback list with a free one. */
export function llmSpread(env: Env): boolean {
  const raw = str(env, 'LLM_SPREAD') ?? 'off';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`LLM_SPREAD must be on or off, got ${raw}`);
  return raw === 'on';
}

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/**
 * LLM_REASONING_EFFORT: one effort for every phase (`low`), or one per phase (`ceoSynthesis=high,jsonExtraction=minimal`,
 * the phases by their engine-configuration keys). A phase not named sends none (the model's own default).
 */
export function reasoningEfforts(env: Env): Partial<Record<(typeof ENGINE_CONFIG_KEYS)[number], ReasoningEffort>> {
  const raw = str(env, 'LLM_REASONING_EFFORT');
  if (raw === undefined) return {};
  const effort = (value: string): ReasoningEffort => {
    if ((REASONING_EFFORTS as readonly string[]).includes(value)) return value as ReasoningEffort;
    throw new ConfigError(
      `LLM_REASONING_EFFORT: ${JSON.stringify(value)} is not one of ${REASONING_EFFORTS.join(', ')}`,
    );
  };
  if (!raw.includes('=')) {
    const one = effort(raw.trim());
    return Object.fromEntries(ENGINE_CONFIG_KEYS.map((k) => [k, one]));
  }
  const out: Partial<Record<(typeof ENGINE_CONFIG_KEYS)[number], ReasoningEffort>> = {};
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [key, value, ...rest] = part.split('=').map((x) => x.trim());
    if (rest.length > 0 || !key || value === undefined || !(ENGINE_CONFIG_KEYS as readonly string[]).includes(key)) {
      throw new ConfigError(
        `LLM_REASONING_EFFORT: ${JSON.stringify(part)} is not <phase>=<effort> with a phase of ${ENGINE_CONFIG_KEYS.join(', ')}`,
      );
    }
    out[key as (typeof ENGINE_CONFIG_KEYS)[number]] = effort(value);
  }
  return out;
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

/** Who holds the agent wallets' keys: the service itself (derived from WALLET_MASTER_SEED) or a remote signer. */
export const WALLET_PROVIDERS = ['seed', 'remote'] as const;
export type WalletProviderName = (typeof WALLET_PROVIDERS)[number];

/** How the service reaches its remote signer (WALLET_PROVIDER=remote). */
export interface RemoteSignerConfig {
  url: string;
  /** One header sent with every call, e.g. `Authorization: Bearer …`; its value is a secret and is never shown. */
  authHeader?: { name: string; value: string } | undefined;
  /** PEM file of the certificate authority that signed the signer's certificate (a private CA). */
  caFile?: string | undefined;
  /** PEM files of the client certificate and its key, for a signer that requires mutual TLS. */
  clientCertFile?: string | undefined;
  clientKeyFile?: string | undefined;
  timeoutMs: number;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * WALLET_PROVIDER and, for `remote`, the WALLET_SIGNER_* variables. Values of secrets (the auth header's value, a
 * password in the URL) are never echoed in a message.
 */
export function walletProvider(
  env: Env,
  production: boolean,
): { walletProvider: WalletProviderName; walletSigner: RemoteSignerConfig | undefined } {
  const name = str(env, 'WALLET_PROVIDER') ?? 'seed';
  if (!(WALLET_PROVIDERS as readonly string[]).includes(name)) {
    throw new ConfigError(`WALLET_PROVIDER must be one of ${WALLET_PROVIDERS.join(', ')}, got "${name}"`);
  }
  const signerVariables = [
    'WALLET_SIGNER_URL',
    'WALLET_SIGNER_AUTH_HEADER',
    'WALLET_SIGNER_CA_FILE',
    'WALLET_SIGNER_CLIENT_CERT_FILE',
    'WALLET_SIGNER_CLIENT_KEY_FILE',
    'WALLET_SIGNER_TIMEOUT_MS',
  ];
  if (name === 'seed') {
    const stray = signerVariables.find((v) => str(env, v) !== undefined);
    if (stray) {
      throw new ConfigError(
        `${stray} is set but WALLET_PROVIDER is not remote: set WALLET_PROVIDER=remote to keep agent keys in the remote signer, or unset ${stray}`,
      );
    }
    return { walletProvider: 'seed', walletSigner: undefined };
  }
  if (str(env, 'WALLET_MASTER_SEED') !== undefined) {
    throw new ConfigError(
      'WALLET_MASTER_SEED is set but WALLET_PROVIDER=remote keeps agent keys in the remote signer: unset WALLET_MASTER_SEED (import the keys it derived into the signer first if agents use them)',
    );
  }
  const signerUrl = url(env, 'WALLET_SIGNER_URL', ['http:', 'https:']);
  if (signerUrl === undefined) {
    throw new ConfigError(
      'WALLET_PROVIDER=remote needs WALLET_SIGNER_URL: the JSON-RPC endpoint of the signer (e.g. https://signer.internal:9000)',
    );
  }
  const parsed = new URL(signerUrl);
  const tls = parsed.protocol === 'https:';
  const authRaw = str(env, 'WALLET_SIGNER_AUTH_HEADER');
  let authHeader: RemoteSignerConfig['authHeader'];
  if (authRaw !== undefined) {
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)$/.exec(authRaw);
    if (!m) {
      throw new ConfigError(
        'WALLET_SIGNER_AUTH_HEADER must be "Name: value" (a header name, a colon, then printable ASCII), e.g. "Authorization: Bearer <token>"',
      );
    }
    authHeader = { name: m[1]!, value: m[2]! };
  }
  const secret = authHeader !== undefined || parsed.password !== '';
  if (production && secret && !tls && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new ConfigError(
      'WALLET_SIGNER_URL is http:// to another host while WALLET_SIGNER_AUTH_HEADER (or a password in the URL) is set: the credential would cross the network in clear; use https://',
    );
  }
  const caFile = str(env, 'WALLET_SIGNER_CA_FILE');
  const clientCertFile = str(env, 'WALLET_SIGNER_CLIENT_CERT_FILE');
  const clientKeyFile = str(env, 'WALLET_SIGNER_CLIENT_KEY_FILE');
  if (!tls && (caFile || clientCertFile || clientKeyFile)) {
    throw new ConfigError(
      'WALLET_SIGNER_CA_FILE and WALLET_SIGNER_CLIENT_*_FILE apply to https:// only, but WALLET_SIGNER_URL is http://',
    );
  }
  if ((clientCertFile === undefined) !== (clientKeyFile === undefined)) {
    throw new ConfigError(
      'WALLET_SIGNER_CLIENT_CERT_FILE and WALLET_SIGNER_CLIENT_KEY_FILE go together: set both or neither',
    );
  }
  return {
    walletProvider: 'remote',
    walletSigner: {
      url: signerUrl,
      authHeader,
      caFile,
      clientCertFile,
      clientKeyFile,
      timeoutMs: int(env, 'WALLET_SIGNER_TIMEOUT_MS', 10_000, 100, 120_000),
    },
  };
}

/** A model's price: micro-USD per 1M prompt and completion tokens. */
export interface ModelPriceConfig {
  inputMicroUsdPerM: number;
  outputMicroUsdPerM: number;
}

/** The most a price table may say a model costs, USD per 1M tokens (a typo of a few zeros is refused). */
const PRICE_MAX_USD_PER_M = 1_000;
const MODEL_ID = new RegExp(MODEL_ID_PATTERN);

/**
 * The operator's model prices: LLM_PRICES (JSON) or LLM_PRICES_FILE (a path to the same JSON), an object of model
 * id to `{ "input": USD per 1M prompt tokens, "output": USD per 1M completion tokens }`. They price the models
 * whose endpoint does not say what it billed, over the built-in list prices of the same ids.
 */
export function modelPrices(env: Env): Record<string, ModelPriceConfig> {
  const inline = str(env, 'LLM_PRICES');
  const file = str(env, 'LLM_PRICES_FILE');
  if (inline !== undefined && file !== undefined) throw new ConfigError('set LLM_PRICES or LLM_PRICES_FILE, not both');
  const name = inline !== undefined ? 'LLM_PRICES' : 'LLM_PRICES_FILE';
  let text = inline;
  if (file !== undefined) {
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`LLM_PRICES_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfigError(
      `${name} is not JSON: an object of model id to { "input": USD, "output": USD } per 1M tokens`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError(`${name} must be an object of model id to { "input": USD, "output": USD } per 1M tokens`);
  }
  const prices: Record<string, ModelPriceConfig> = {};
  for (const [id, price] of Object.entries(parsed)) {
    if (!MODEL_ID.test(id)) throw new ConfigError(`${name}: ${JSON.stringify(id)} is not a model id`);
    const { input, output, ...rest } = (price ?? {}) as Record<string, unknown>;
    const usd = (v: unknown) =>
      typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= PRICE_MAX_USD_PER_M ? Math.round(v * 1e6) : null;
    const [i, o] = [usd(input), usd(output)];
    if (i === null || o === null || Object.keys(rest).length > 0) {
      throw new ConfigError(
        `${name}: ${id} must be { "input": USD, "output": USD } per 1M tokens, each a number from 0 to ${PRICE_MAX_USD_PER_M}`,
      );
    }
    prices[id] = { inputMicroUsdPerM: i, outputMicroUsdPerM: o };
  }
  return prices;
}
