// The outside services' endpoints in the environment: the model gateway and per-provider endpoints, the headers
// sent to them, the fallback models, the operator's model prices, and the OTLP traces collector.
import { readFileSync } from 'node:fs';
import { MODEL_PROVIDERS, type ModelProviderName } from '../constants.ts';
import { ConfigError, type Env, str } from './parse.ts';
import { llmEnvPrefix, MODEL_ID } from './settings/models.ts';
import { read } from './settings.ts';

export { llmEnvPrefix, REASONING_EFFORTS, type ReasoningEffort } from './settings/models.ts';

import { WALLET_PROVIDERS } from './settings/service.ts';

export { WALLET_PROVIDERS };

/** The endpoint of the gateway (no provider) or of one provider, from its two variables. */
export function llmEndpoint(env: Env, provider?: ModelProviderName): ModelEndpoint | undefined {
  const prefix = llmEnvPrefix(provider);
  const baseUrl = provider ? read(env, 'LLM_<PROVIDER>_BASE_URL', `${prefix}_BASE_URL`) : read(env, 'LLM_BASE_URL');
  const apiKey = provider ? read(env, 'LLM_<PROVIDER>_API_KEY', `${prefix}_API_KEY`) : read(env, 'LLM_API_KEY');
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

/** The per-provider endpoints that are configured. */
export function llmEndpoints(env: Env): Partial<Record<ModelProviderName, ModelEndpoint>> {
  return Object.fromEntries(
    MODEL_PROVIDERS.flatMap((p) => {
      const endpoint = llmEndpoint(env, p);
      return endpoint ? [[p, endpoint]] : [];
    }),
  );
}

/** How streamed answers are asked for and bounded (docs/operations.md "Settings that matter in a fleet"). */
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
  return {
    enabled: read(env, 'LLM_STREAM') === 'on',
    firstTokenMs: read(env, 'LLM_FIRST_TOKEN_MS'),
    progressMs: read(env, 'LLM_STREAM_PROGRESS_MS'),
    maxMs: read(env, 'LLM_STREAM_MAX_MS'),
  };
}

/** LLM_GATEWAY_KIND, else `openrouter` when LLM_BASE_URL's host is openrouter.ai. */
export function gatewayKind(env: Env): 'openrouter' | 'generic' {
  const kind = read(env, 'LLM_GATEWAY_KIND');
  if (kind !== undefined) return kind;
  const base = read(env, 'LLM_BASE_URL');
  try {
    return base && /(^|\.)openrouter\.ai$/.test(new URL(base).hostname) ? 'openrouter' : 'generic';
  } catch {
    return 'generic';
  }
}

/** The OTLP/HTTP traces URL of the standard variables: the traces endpoint as given, or the base one + /v1/traces. */
export function otlpTracesUrl(env: Env): string | undefined {
  const traces = read(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (traces) return traces;
  const base = read(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/** An OpenAI-compatible endpoint: `{baseUrl}/chat/completions`, with `Authorization: Bearer <apiKey>` when set. */
export interface ModelEndpoint {
  baseUrl: string;
  apiKey?: string | undefined;
}

/** Who holds the agent wallets' keys: the service itself (derived from WALLET_MASTER_SEED) or a remote signer. */
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
  const name = read(env, 'WALLET_PROVIDER');
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
  const signerUrl = read(env, 'WALLET_SIGNER_URL');
  if (signerUrl === undefined) {
    throw new ConfigError(
      'WALLET_PROVIDER=remote needs WALLET_SIGNER_URL: the JSON-RPC endpoint of the signer (e.g. https://signer.internal:9000)',
    );
  }
  const parsed = new URL(signerUrl);
  const tls = parsed.protocol === 'https:';
  // The kind checked its form ("Name: value"); the name ends at the first colon.
  const authRaw = read(env, 'WALLET_SIGNER_AUTH_HEADER');
  const colon = authRaw?.indexOf(':') ?? -1;
  const authHeader: RemoteSignerConfig['authHeader'] =
    authRaw === undefined ? undefined : { name: authRaw.slice(0, colon), value: authRaw.slice(colon + 1).trim() };
  const secret = authHeader !== undefined || parsed.password !== '';
  if (production && secret && !tls && !LOOPBACK_HOSTS.has(parsed.hostname)) {
    throw new ConfigError(
      'WALLET_SIGNER_URL is http:// to another host while WALLET_SIGNER_AUTH_HEADER (or a password in the URL) is set: the credential would cross the network in clear; use https://',
    );
  }
  const caFile = read(env, 'WALLET_SIGNER_CA_FILE');
  const clientCertFile = read(env, 'WALLET_SIGNER_CLIENT_CERT_FILE');
  const clientKeyFile = read(env, 'WALLET_SIGNER_CLIENT_KEY_FILE');
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
      timeoutMs: read(env, 'WALLET_SIGNER_TIMEOUT_MS'),
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

/**
 * The operator's model prices: LLM_PRICES (JSON) or LLM_PRICES_FILE (a path to the same JSON), an object of model
 * id to `{ "input": USD per 1M prompt tokens, "output": USD per 1M completion tokens }`. They price the models
 * whose endpoint does not say what it billed, over the built-in list prices of the same ids.
 */
export function modelPrices(env: Env): Record<string, ModelPriceConfig> {
  const inline = read(env, 'LLM_PRICES');
  const file = read(env, 'LLM_PRICES_FILE');
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
