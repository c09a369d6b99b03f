// The body of a chat-completions request: the messages, the answer's token limit under the name the model takes,
// JSON mode or strict structured output where the model's provider has it, and the tools as function calls.
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
