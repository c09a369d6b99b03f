// The body of a chat-completions request: the messages, the answer's token limit under the name the model takes,
// JSON mode or strict structured output where the model's provider has it, the tools as function calls, the
// reasoning effort where the model reasons, and prompt caching where the provider offers it.
import { createHash } from 'node:crypto';
import type { ModelProviderName } from '../../../constants.ts';
import { providerOf } from './catalog.ts';
import type { ChatRequest, EngineModelId } from './types.ts';

/**
 * What each provider's models accept for a JSON answer. `json_schema`: strict structured output (OpenAI, Google's
 * Gemini, and OpenRouter for them), so the answer follows the schema token by token. `json_object`: JSON mode
 * only. `none`: the compatibility endpoint ignores response_format (Anthropic's own), so the JSON is found in the
 * text; through a gateway Anthropic's models get `json_schema` (outputOf).
 * Strict function definitions (`strict: true` on tools) go to OpenAI's models only.
 */
export const STRUCTURED_OUTPUT: Readonly<
  Record<ModelProviderName, { answer: 'json_schema' | 'json_object' | 'none'; strictTools: boolean }>
> = {
  openai: { answer: 'json_schema', strictTools: true },
  google: { answer: 'json_schema', strictTools: false },
  anthropic: { answer: 'none', strictTools: false },
  deepseek: { answer: 'json_object', strictTools: false },
  'meta-llama': { answer: 'json_object', strictTools: false },
};

/** Where a call goes, as far as the body cares: the model field sent and whether it is OpenAI's own endpoint. */
export interface BodyRoute {
  /** The model field sent: the full id to a gateway, the name after the `/` to a provider's endpoint. */
  model: string;
  via: string;
}

/**
 * OpenAI's reasoning models (on its own endpoint) take `max_completion_tokens` and only the default temperature;
 * through a gateway `max_tokens` is translated for them.
 */
export function requestBody(route: BodyRoute, request: ChatRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: route.model, messages: request.messages };
  const openAiReasoning = route.via === 'openai' && /^(gpt-5|o\d)/.test(route.model);
  if (request.maxTokens !== undefined) {
    body[openAiReasoning ? 'max_completion_tokens' : 'max_tokens'] = request.maxTokens;
  }
  if (request.temperature !== undefined && !openAiReasoning) body.temperature = request.temperature;
  const output = outputOf(request.model, route.via);
  if (request.json) {
    if (request.schema && output.answer === 'json_schema') {
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: request.schema.name, strict: true, schema: strictSchema(request.schema.schema) },
      };
    } else if (output.answer !== 'none') {
      body.response_format = { type: 'json_object' };
    }
  }
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: output.strictTools ? strictSchema(t.parameters) : t.parameters,
        ...(output.strictTools && { strict: true }),
      },
    }));
    body.tool_choice = 'auto';
  }
  return body;
}

/**
 * Through a gateway (OpenRouter), Anthropic's models take strict structured output too (the gateway translates it);
 * only Anthropic's own compatibility endpoint ignores it.
 */
function outputOf(model: EngineModelId, via: string) {
  const provider = providerOf(model);
  if (provider === 'anthropic' && via === 'gateway') return { answer: 'json_schema' as const, strictTools: false };
  return (
    (STRUCTURED_OUTPUT as Record<string, (typeof STRUCTURED_OUTPUT)[ModelProviderName] | undefined>)[provider] ?? {
      answer: 'json_object' as const,
      strictTools: false,
    }
  );
}

/**
 * Whether a model reasons and takes an effort: OpenAI's GPT-5 and o-series, Anthropic's Claude 4 family and 3.7
 * Sonnet, Google's Gemini 2.5 and later. Others (DeepSeek's chat model, Llama) are sent none.
 */
export function takesReasoning(model: EngineModelId): boolean {
  const provider = providerOf(model);
  const name = model.slice(provider.length + 1);
  switch (provider) {
    case 'openai':
      return /^(gpt-5|o\d)/.test(name);
    case 'anthropic':
      return /^claude-(3-7-sonnet|(opus|sonnet|haiku)-4)/.test(name);
    case 'google':
      return /^gemini-(2\.5|[3-9])/.test(name);
    default:
      return false;
  }
}

/**
 * The reasoning effort as the route takes it: OpenRouter's unified `reasoning: { effort }`; OpenAI's and Google's
 * own endpoints and other gateways (LiteLLM) `reasoning_effort` (Gemini has no `minimal`: `low` instead). Anthropic's
 * own compatibility endpoint takes none (its extended thinking is not in the OpenAI protocol), nor does a model that
 * does not reason.
 */
export function reasoningFields(
  route: BodyRoute,
  request: Pick<ChatRequest, 'model' | 'reasoning'>,
  gatewayKind: 'openrouter' | 'generic' | undefined,
): Record<string, unknown> {
  const effort = request.reasoning;
  if (effort === undefined || !takesReasoning(request.model)) return {};
  if (route.via === 'gateway' && gatewayKind === 'openrouter') return { reasoning: { effort } };
  if (route.via === 'anthropic') return {};
  const provider = providerOf(request.model);
  return { reasoning_effort: provider === 'google' && effort === 'minimal' ? 'low' : effort };
}

/**
 * Prompt caching. Anthropic's models through a gateway (OpenRouter, LiteLLM) cache only up to a `cache_control`
 * breakpoint: one goes on the system message, whose prefix (the tools, then the system prompt) is the same for a
 * company's role every round. OpenAI caches the longest shared prefix by itself; its own endpoint also gets a
 * `prompt_cache_key` naming that prefix (the company, the system prompt and the tools' names), so calls that share
 * it are routed to the same cache. Other providers cache implicitly or not at all: nothing is sent.
 */
export function cacheFields(
  route: BodyRoute,
  request: Pick<ChatRequest, 'model' | 'messages' | 'tools' | 'user'>,
): Record<string, unknown> {
  const provider = providerOf(request.model);
  const first = request.messages[0];
  if (provider === 'anthropic' && route.via === 'gateway' && first?.role === 'system') {
    return {
      messages: [
        { role: 'system', content: [{ type: 'text', text: first.content, cache_control: { type: 'ephemeral' } }] },
        ...request.messages.slice(1),
      ],
    };
  }
  if (route.via === 'openai' && first?.role === 'system') {
    const prefix = createHash('sha256')
      .update(request.user ?? '')
      .update('\0')
      .update(first.content)
      .update('\0')
      .update((request.tools ?? []).map((t) => t.name).join(','))
      .digest('hex')
      .slice(0, 32);
    return { prompt_cache_key: prefix };
  }
  return {};
}

/** Keywords strict mode refuses; the engine's own validator checks them on the answer instead. */
const STRICT_UNSUPPORTED = new Set(['minLength', 'maxLength', 'minProperties', 'maxProperties', 'uniqueItems']);

/**
 * A JSON schema in the form strict structured output demands: every object closed and every property required,
 * an optional one made nullable instead (a null there means "absent": `withoutNulls` removes it before the engine
 * validates the answer against the original schema), and the keywords strict mode refuses left out.
 */
export function strictSchema(schema: unknown): Record<string, unknown> {
  return convert(schema) as Record<string, unknown>;
}

function convert(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convert);
  if (node === null || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (STRICT_UNSUPPORTED.has(key)) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      const required = new Set(Array.isArray(source.required) ? (source.required as string[]) : []);
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, prop]) => [
          name,
          required.has(name) ? convert(prop) : nullable(convert(prop)),
        ]),
      );
    } else {
      out[key] = convert(value);
    }
  }
  if (source.type === 'object') {
    out.additionalProperties = false;
    out.required = Object.keys((source.properties as Record<string, unknown> | undefined) ?? {});
    out.properties ??= {};
  }
  return out;
}

function nullable(schema: unknown): unknown {
  const s = schema as Record<string, unknown>;
  if (typeof s.type === 'string' && !('enum' in s)) return { ...s, type: [s.type, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

/** The answer with every null-valued property removed, at every level (see strictSchema). */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
