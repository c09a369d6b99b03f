// Reading an OpenAI-compatible answer, which is outside input like any other: its body is read up to a byte cap,
// its JSON is found wherever the model put it (a fence, prose around it), its tool calls become proposals, a
// refusal, an empty choice or a cut-off answer is named as such, and its usage is believed only within what the
// request could have cost.
import { condense } from '../condense.ts';
import type { ChatMessage } from './types.ts';

/** Bytes of an answer read at most: a legitimate answer within its max_tokens is a few tens of kilobytes. */
export const MODEL_RESPONSE_MAX_BYTES = 1024 * 1024;
/** Characters of a refusal or an error body kept in the round's record. */
export const MODEL_TEXT_KEPT_MAX = 500;
/** Characters of a model name kept (the answer's `model` is the endpoint's text). */
const MODEL_NAME_MAX = 100;

/** Rough token count of a text, for endpoints that report no usage: ~4 characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimatePromptTokens(messages: ChatMessage[]): number {
  // Each message carries a few tokens of framing (role, separators) besides its text.
  return messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
}

/** How many `{` a search for a JSON object tries before it gives up (bounds the work on hostile text). */
const OBJECT_CANDIDATES_MAX = 32;

/**
 * The JSON object in an answer: the whole text, else the first fenced block that holds one, else the first
 * balanced `{...}` anywhere that parses as an object. Undefined when there is none.
 */
export function jsonObjectText(content: string): string | undefined {
  const whole = asObjectText(content.trim());
  if (whole !== undefined) return whole;
  for (const fence of content.matchAll(/```[A-Za-z0-9_-]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const inner = fence[1]!.trim();
    const found = asObjectText(inner) ?? firstBalancedObject(inner);
    if (found !== undefined) return found;
  }
  return firstBalancedObject(content);
}

function asObjectText(text: string): string | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? text : undefined;
  } catch {
    return undefined;
  }
}

function firstBalancedObject(text: string): string | undefined {
  let from = 0;
  for (let tries = 0; tries < OBJECT_CANDIDATES_MAX; tries++) {
    const start = text.indexOf('{', from);
    if (start < 0) return undefined;
    const end = balancedEnd(text, start);
    if (end < 0) return undefined;
    const found = asObjectText(text.slice(start, end + 1));
    if (found !== undefined) return found;
    from = start + 1;
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `start`, skipping braces inside JSON strings; -1 when unbalanced. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

interface ToolCallMessage {
  content?: unknown;
  refusal?: unknown;
  tool_calls?: { type?: unknown; function?: { name?: unknown; arguments?: unknown } }[];
}

/** Tool names kept at most this long in a proposal (a name is the model's text until it is checked). */
const TOOL_NAME_MAX = 64;

/**
 * An answer's function calls as the roles phase's `{"proposals": [...]}` JSON (each call's arguments parsed, the
 * message's text as their rationale); undefined when it made none. What a call names is checked like any proposal.
 */
export function toolCallsAsProposals(message: ToolCallMessage | undefined): string | undefined {
  const calls = Array.isArray(message?.tool_calls) ? message.tool_calls : [];
  if (calls.length === 0) return undefined;
  const rationale = typeof message?.content === 'string' ? message.content.trim() : '';
  const refused: { tool: string; reason: string }[] = [];
  const proposals = calls.flatMap((call) => {
    const name = call?.function?.name;
    if (typeof name !== 'string') return [];
    const tool = name.slice(0, TOOL_NAME_MAX);
    let args: unknown = {};
    try {
      args = typeof call.function?.arguments === 'string' ? JSON.parse(call.function.arguments || '{}') : {};
    } catch {
      const raw = String(call.function?.arguments).replace(/\s+/g, ' ').slice(0, 80);
      refused.push({ tool, reason: `its arguments are not valid JSON: ${JSON.stringify(raw)}` });
      return [];
    }
    return [{ tool, args, rationale }];
  });
  return JSON.stringify({ proposals, ...(refused.length > 0 && { refused }) });
}

/** What one answer holds, before the phase's needs are applied. */
export type Completion =
  | { kind: 'no-choice' }
  | {
      kind: 'choice';
      message: ToolCallMessage | undefined;
      /** The message's text, '' when it has none. */
      content: string;
      finishReason: string | undefined;
      refusal: string | undefined;
    };

export function completionOf(body: unknown): Completion {
  const choice = (body as { choices?: { message?: ToolCallMessage; finish_reason?: unknown }[] } | null)?.choices?.[0];
  if (!choice || typeof choice !== 'object') return { kind: 'no-choice' };
  const message = choice.message;
  const refusal = typeof message?.refusal === 'string' && message.refusal.trim() !== '' ? message.refusal : undefined;
  return {
    kind: 'choice',
    message,
    content: typeof message?.content === 'string' ? message.content : '',
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason.slice(0, 32) : undefined,
    refusal: refusal === undefined ? undefined : condense(refusal.replace(/\s+/g, ' ').trim(), MODEL_TEXT_KEPT_MAX),
  };
}

/** The model an answer names, kept when it is a plausible name (printable, bounded). */
export function answeredModel(body: unknown): string | undefined {
  const model = (body as { model?: unknown } | null)?.model;
  if (typeof model !== 'string') return undefined;
  const clean = model.trim();
  return clean !== '' && clean.length <= MODEL_NAME_MAX && /^[\x21-\x7e]+$/.test(clean) ? clean : undefined;
}

/** The usage an answer reports, as it reports it (any field may be missing or wrong). */
export interface ReportedUsage {
  prompt?: number;
  completion?: number;
  /** USD, when the endpoint says what it billed (OpenRouter's `usage.cost`). */
  cost?: number;
  /**
   * Prompt tokens read from the provider's cache: `prompt_tokens_details.cached_tokens` (OpenAI, OpenRouter, Gemini),
   * else `cache_read_input_tokens` (Anthropic's own figure, passed on by some gateways).
   */
  cached?: number;
}

/**
 * The usage an answer reports, and what it says it billed: OpenRouter's `usage.cost` in the body, else LiteLLM's
 * `x-litellm-response-cost` header (USD, a decimal number), when given.
 */
export function reportedUsage(body: unknown, headerCost?: string | undefined): ReportedUsage {
  const usage = (body as { usage?: Record<string, unknown> } | null)?.usage;
  const fromHeader =
    headerCost !== undefined && /^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(headerCost.trim()) ? Number(headerCost) : undefined;
  const usd = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
  if (!usage || typeof usage !== 'object') return fromHeader === undefined ? {} : { cost: usd(fromHeader) };
  const count = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  const details = usage.prompt_tokens_details as { cached_tokens?: unknown } | undefined;
  const cached = count(details && typeof details === 'object' ? details.cached_tokens : undefined);
  return {
    prompt: count(usage.prompt_tokens),
    completion: count(usage.completion_tokens),
    cost: usd(usage.cost) ?? usd(fromHeader),
    cached: cached ?? count(usage.cache_read_input_tokens),
  };
}

/** The most a request could have used: every prompt token is at least a byte of it; the answer, its max_tokens. */
export interface UsageBounds {
  promptMax: number;
  completionMax: number;
}

/**
 * Prompt tokens beyond the request's bytes (plus room for each message's framing and the provider's own
 * template) are not believable; nor are completion tokens beyond max_tokens (a little slack for providers that
 * count a stop token past it).
 */
export function usageBounds(requestBytes: number, messages: number, maxTokens: number): UsageBounds {
  return { promptMax: requestBytes + 16 * messages + 1_000, completionMax: Math.ceil(maxTokens * 1.05) + 16 };
}

/**
 * The tokens to bill for one answer: the reported figures when they are whole, non-negative and within bounds,
 * else the estimate (text length / 4), and whether any figure was estimated.
 */
export function believedTokens(
  reported: ReportedUsage,
  bounds: UsageBounds,
  estimate: { prompt: number; completion: number },
): { prompt: number; completion: number; estimated: boolean } {
  const promptOk = reported.prompt !== undefined && reported.prompt <= bounds.promptMax;
  const completionOk = reported.completion !== undefined && reported.completion <= bounds.completionMax;
  return {
    prompt: promptOk ? reported.prompt! : Math.min(estimate.prompt, bounds.promptMax),
    completion: completionOk ? reported.completion! : Math.min(estimate.completion, bounds.completionMax),
    estimated: !promptOk || !completionOk,
  };
}

/**
 * The cost to record: what the endpoint billed when it says so and the figure is believable (at most ten times the
 * list price of the most the request could have used, plus a cent: gateways charge more than list, never that
 * much), else the list price of the believed tokens.
 */
export function believedCost(
  reported: ReportedUsage,
  listCost: (prompt: number, completion: number) => number,
  tokens: { prompt: number; completion: number },
  bounds: UsageBounds,
): { cost: number; billed: boolean } {
  const ceiling = listCost(bounds.promptMax, bounds.completionMax) * 10 + 0.01;
  if (reported.cost !== undefined && reported.cost <= ceiling) return { cost: reported.cost, billed: true };
  return { cost: listCost(tokens.prompt, tokens.completion), billed: false };
}
