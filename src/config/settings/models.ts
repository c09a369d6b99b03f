// The settings of the outside services the engine calls: model endpoints, their limits and streaming, the reasoning
// effort, and the OTLP traces collector. Each row: the variable, its kind (config/parse.ts), its default and its docs.
import {
  ENGINE_CONFIG_KEYS,
  LLM_MAX_IN_FLIGHT_DEFAULT,
  MODEL_ID_PATTERN,
  MODEL_PROVIDERS,
  type ModelProviderName,
} from '../../constants.ts';
import { ConfigError, custom, durationMs, HTTP_URL, headerText, int, list, oneOf, setting, text } from '../parse.ts';

/** The env prefix of an LLM endpoint: LLM for the gateway, LLM_OPENAI ... LLM_META_LLAMA per provider. */
export const llmEnvPrefix = (provider?: ModelProviderName) =>
  provider === undefined ? 'LLM' : `LLM_${provider.toUpperCase().replace(/-/g, '_')}`;

export const MODEL_ID = new RegExp(MODEL_ID_PATTERN);

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];
type Phase = (typeof ENGINE_CONFIG_KEYS)[number];

/**
 * LLM_REASONING_EFFORT: one effort for every phase (`low`), or one per phase (`ceoSynthesis=high,jsonExtraction=minimal`,
 * the phases by their engine-configuration keys). A phase not named sends none (the model's own default).
 */
const reasoningEfforts = custom<Partial<Record<Phase, ReasoningEffort>>>(
  `one of ${REASONING_EFFORTS.join(', ')}, or <phase>=<effort> pairs`,
  (raw, name) => {
    const effort = (value: string): ReasoningEffort => {
      if ((REASONING_EFFORTS as readonly string[]).includes(value)) return value as ReasoningEffort;
      throw new ConfigError(`${name}: ${JSON.stringify(value)} is not one of ${REASONING_EFFORTS.join(', ')}`);
    };
    if (!raw.includes('=')) {
      const one = effort(raw);
      return Object.fromEntries(ENGINE_CONFIG_KEYS.map((k) => [k, one]));
    }
    const out: Partial<Record<Phase, ReasoningEffort>> = {};
    for (const part of raw
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')) {
      const [key, value, ...rest] = part.split('=').map((x) => x.trim());
      if (rest.length > 0 || !key || value === undefined || !(ENGINE_CONFIG_KEYS as readonly string[]).includes(key)) {
        throw new ConfigError(
          `${name}: ${JSON.stringify(part)} is not <phase>=<effort> with a phase of ${ENGINE_CONFIG_KEYS.join(', ')}`,
        );
      }
      out[key as Phase] = effort(value);
    }
    return out;
  },
);

/** An API key sent as a header: header-unsafe characters would fail every call. Never echoed: it is a secret. */
const apiKey = text(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
const PROVIDER_PREFIXES = MODEL_PROVIDERS.map((p) => llmEnvPrefix(p));

export const MODEL_SETTINGS = {
  LLM_BASE_URL: setting({
    kind: HTTP_URL,
    defaultDoc: 'unset: no gateway',
    doc: 'default OpenAI-compatible gateway of the decision engine (e.g. `https://openrouter.ai/api/v1`); it is sent the full model id (`openai/gpt-5`). The key is sent as `Authorization: Bearer` and never logged; a key without its URL stops start-up',
  }),
  LLM_API_KEY: setting({ kind: apiKey, secret: true, docWith: 'LLM_BASE_URL' }),
  'LLM_<PROVIDER>_BASE_URL': setting({
    kind: HTTP_URL,
    names: PROVIDER_PREFIXES.map((p) => `${p}_BASE_URL`),
    doc: `an endpoint for one provider's models, \`<PROVIDER>\` one of ${PROVIDER_PREFIXES.map((p) => `\`${p.slice(4)}\``).join(', ')}; it is sent the model name after the \`/\` (\`gpt-5\`) and takes precedence over the gateway. A key is optional (local servers). With no LLM endpoint at all, the built-in deterministic model answers every phase; a model whose provider has no endpoint and no gateway is answered by the built-in model (logged once)`,
  }),
  'LLM_<PROVIDER>_API_KEY': setting({
    kind: apiKey,
    secret: true,
    names: PROVIDER_PREFIXES.map((p) => `${p}_API_KEY`),
    docWith: 'LLM_<PROVIDER>_BASE_URL',
  }),
  LLM_TIMEOUT_MS: setting({
    kind: durationMs(100, 600_000),
    default: 30_000,
    doc: 'timeout of each model call attempt, 100 to 600000',
  }),
  LLM_MAX_RETRIES: setting({
    kind: int(0, 10),
    default: 2,
    doc: 'retries of a model call after a timeout, network error, 408, 429 (honouring `Retry-After`, at most 30 s) or 5xx, with exponential backoff and jitter; 0 to 10. A malformed answer is retried once',
  }),
  LLM_FALLBACK_MODELS: setting({
    kind: list({
      max: 3,
      item: (id, name) => {
        if (!MODEL_ID.test(id)) throw new ConfigError(`${name}: ${JSON.stringify(id)} is not a model id`);
      },
    }),
    default: [],
    defaultDoc: 'unset: none',
    doc: "comma-separated model ids (at most 3; any the provider serves, not only the eight known) tried in order after a phase's own model (and its preset's, when the company chose another) when its call fails on a timeout, network error, 408, 429, 5xx or malformed answer ([docs/api/decisions.md](docs/api/decisions.md#configuring-the-models))",
  }),
  LLM_PRICES: setting({
    kind: text(),
    defaultDoc: 'unset: the built-in list prices',
    doc: 'the operator\'s model prices, JSON (`LLM_PRICES`) or a path to a JSON file (`LLM_PRICES_FILE`, not both): `{"<model id>": {"input": <USD per 1M prompt tokens>, "output": <USD per 1M completion tokens>}}`, each 0 to 1000. They price a call whose endpoint does not say what it billed (OpenRouter\'s `usage.cost`, LiteLLM\'s `x-litellm-response-cost` come first), over the built-in prices of the same ids; a model priced nowhere has its cost recorded as unknown ([docs/api/decisions.md](docs/api/decisions.md#the-seven-phases))',
  }),
  LLM_PRICES_FILE: setting({ kind: text(), docWith: 'LLM_PRICES' }),
  LLM_GATEWAY_KIND: setting({
    kind: oneOf(['openrouter', 'generic'] as const),
    defaultDoc: "`openrouter` when `LLM_BASE_URL`'s host is `openrouter.ai`, else `generic`",
    doc: "`openrouter`: the gateway is sent OpenRouter's `models` fallback list and `provider.require_parameters` when a schema or tools go with the call; `generic`: neither",
  }),
  LLM_HTTP_REFERER: setting({
    kind: HTTP_URL,
    defaultDoc: '`BASE_URL`',
    doc: 'sent to model endpoints as `HTTP-Referer` and `X-Title` (how OpenRouter names the app); every call also carries `User-Agent: ai-economy-engine/<version>` and the company id as `user`',
  }),
  LLM_APP_TITLE: setting({ kind: headerText, default: 'ai-economy', docWith: 'LLM_HTTP_REFERER' }),
  LLM_MAX_IN_FLIGHT: setting({
    kind: int(1, 100_000),
    default: LLM_MAX_IN_FLIGHT_DEFAULT,
    doc: 'model calls in flight per provider endpoint and process; a 429 halves it and pauses that provider for its `Retry-After`, successes give the places back',
  }),
  LLM_SPREAD: setting({
    kind: oneOf(['on', 'off'] as const),
    default: 'off',
    doc: "`on`: a call whose model's lane is full (`LLM_MAX_IN_FLIGHT`) goes to a model of its fallback list (`LLM_FALLBACK_MODELS`) with a free lane, so one model's limit does not queue the rounds",
  }),
  LLM_STREAM: setting({
    kind: oneOf(['on', 'off'] as const),
    default: 'off',
    doc: '`on`: every model call asks for a streamed answer (Server-Sent Events), bounded by the three settings below ([docs/operations.md](docs/operations.md#settings-that-matter-in-a-fleet))',
  }),
  LLM_FIRST_TOKEN_MS: setting({
    kind: durationMs(100, 600_000),
    default: 30_000,
    doc: "the longest wait for a streamed answer's first token (at most `LLM_STREAM_MAX_MS`)",
  }),
  LLM_STREAM_PROGRESS_MS: setting({
    kind: durationMs(100, 600_000),
    default: 15_000,
    doc: 'the longest gap between two tokens of a streamed answer',
  }),
  LLM_STREAM_MAX_MS: setting({
    kind: durationMs(100, 600_000),
    default: 60_000,
    doc: 'the longest a streamed attempt may last, however steadily it streams',
  }),
  LLM_REASONING_EFFORT: setting({
    kind: reasoningEfforts,
    default: {},
    defaultDoc: 'unset: none',
    doc: `the reasoning effort asked of models that reason: one of ${REASONING_EFFORTS.map((e) => `\`${e}\``).join(', ')} for every phase, or per phase (\`ceoSynthesis=high,jsonExtraction=minimal\`, phases ${ENGINE_CONFIG_KEYS.map((k) => `\`${k}\``).join(', ')}); a phase not named sends none`,
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: setting({
    kind: HTTP_URL,
    defaultDoc: 'unset: no traces',
    doc: "OTLP/HTTP collector of the engine's spans (one per round, phase and model call; [docs/operations.md](docs/operations.md#traces)); the traces are sent to its `/v1/traces`",
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: setting({
    kind: HTTP_URL,
    defaultDoc: 'unset',
    doc: 'the full traces URL, instead of `OTEL_EXPORTER_OTLP_ENDPOINT`',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: setting({
    kind: text(),
    secret: true,
    readBy: 'the OTLP exporter',
    defaultDoc: 'unset',
    doc: "headers sent to the collector (`key=value,…`, often a collector's key; never logged)",
  }),
  OTEL_SERVICE_NAME: setting({ kind: text(), default: 'ai-economy', doc: '`service.name` of the spans' }),
} as const;
