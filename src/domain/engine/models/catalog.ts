// The 8 engine models: what each costs, which one each engine preset uses for each phase, and who serves it.
// Prices are public list prices (USD per 1M tokens) at the time of writing; they are data, not logic: edit the
// table when a provider changes its prices, and every cost the engine records follows.
import {
  type ENGINE_CONFIG_KEYS,
  ENGINE_MODEL_IDS,
  type ENGINE_PRESETS,
  MODEL_ID_PATTERN,
  type ModelProviderName,
} from '../../../constants.ts';
import type { EngineModelId, KnownModelId, ModelTask } from './types.ts';

export type EnginePreset = (typeof ENGINE_PRESETS)[number];
export type PhaseKey = (typeof ENGINE_CONFIG_KEYS)[number];
export type EngineConfig = Partial<Record<PhaseKey, EngineModelId>>;

export interface ModelPrice {
  /** Micro-USD per 1M prompt tokens (1.25 USD = 1_250_000). */
  inputMicroUsdPerM: number;
  /** Micro-USD per 1M completion tokens. */
  outputMicroUsdPerM: number;
}

/**
 * List prices per 1M tokens, in micro-USD so that costs are integer arithmetic. Editable: these are the public
 * prices of each provider's own API (Gemini 2.5 Pro at its <=200k-token prompt tier, DeepSeek's cache-miss
 * price, Llama 4 Maverick at a typical hosted price). A gateway may charge slightly more.
 */
export const MODEL_PRICES: Readonly<Record<KnownModelId, ModelPrice>> = {
  'openai/gpt-5': { inputMicroUsdPerM: 1_250_000, outputMicroUsdPerM: 10_000_000 },
  'openai/gpt-5-mini': { inputMicroUsdPerM: 250_000, outputMicroUsdPerM: 2_000_000 },
  'anthropic/claude-sonnet-4.5': { inputMicroUsdPerM: 3_000_000, outputMicroUsdPerM: 15_000_000 },
  'anthropic/claude-haiku-4.5': { inputMicroUsdPerM: 1_000_000, outputMicroUsdPerM: 5_000_000 },
  'google/gemini-2.5-pro': { inputMicroUsdPerM: 1_250_000, outputMicroUsdPerM: 10_000_000 },
  'google/gemini-2.5-flash': { inputMicroUsdPerM: 300_000, outputMicroUsdPerM: 2_500_000 },
  'deepseek/deepseek-chat': { inputMicroUsdPerM: 280_000, outputMicroUsdPerM: 420_000 },
  'meta-llama/llama-4-maverick': { inputMicroUsdPerM: 150_000, outputMicroUsdPerM: 600_000 },
};

/** Prices by model id: the operator's table (LLM_PRICES) over MODEL_PRICES. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The price of a model: the operator's, else the built-in list price; undefined when neither knows it. */
export function priceOf(model: string, prices?: PriceTable): ModelPrice | undefined {
  return prices?.[model] ?? (MODEL_PRICES as Record<string, ModelPrice | undefined>)[model];
}

/** The dearest price any table knows: the ceiling a reported bill of an unpriced model is believed within. */
export function dearestPrice(prices?: PriceTable): ModelPrice {
  const all = [...Object.values(MODEL_PRICES), ...Object.values(prices ?? {})];
  return {
    inputMicroUsdPerM: Math.max(...all.map((p) => p.inputMicroUsdPerM)),
    outputMicroUsdPerM: Math.max(...all.map((p) => p.outputMicroUsdPerM)),
  };
}

/**
 * The model of each phase per engine preset; a company's engineConfig overrides single phases. BUDGET uses the
 * cheapest models, PREMIUM the strongest; JSON extraction is always GPT-5 mini, cheap and reliable at
 * structured output, since a decision that fails to parse wastes the whole round.
 */
export const PRESET_MODELS: Readonly<Record<EnginePreset, Readonly<Record<PhaseKey, KnownModelId>>>> = {
  BUDGET: {
    briefGeneration: 'meta-llama/llama-4-maverick',
    scrapeSummary: 'meta-llama/llama-4-maverick',
    roleExecution: 'deepseek/deepseek-chat',
    ceoSynthesis: 'deepseek/deepseek-chat',
    jsonExtraction: 'openai/gpt-5-mini',
  },
  EFFICIENT: {
    briefGeneration: 'google/gemini-2.5-flash',
    scrapeSummary: 'google/gemini-2.5-flash',
    roleExecution: 'openai/gpt-5-mini',
    ceoSynthesis: 'anthropic/claude-haiku-4.5',
    jsonExtraction: 'openai/gpt-5-mini',
  },
  BALANCED: {
    briefGeneration: 'google/gemini-2.5-flash',
    scrapeSummary: 'google/gemini-2.5-flash',
    roleExecution: 'anthropic/claude-haiku-4.5',
    ceoSynthesis: 'openai/gpt-5',
    jsonExtraction: 'openai/gpt-5-mini',
  },
  PREMIUM: {
    briefGeneration: 'anthropic/claude-sonnet-4.5',
    scrapeSummary: 'google/gemini-2.5-pro',
    roleExecution: 'anthropic/claude-sonnet-4.5',
    ceoSynthesis: 'openai/gpt-5',
    jsonExtraction: 'openai/gpt-5-mini',
  },
};

/**
 * The most tokens each phase's answer may take (sent as max_tokens, or max_completion_tokens). Reasoning models
 * count their thinking against it, so each leaves room beyond the text asked for (a brief of 120 words, a decision
 * of up to 10 actions): at the dearest list price (15 USD per 1M output tokens) a round's answers cost at most
 * about 0.7 USD, whatever a model writes.
 */
export const PHASE_MAX_TOKENS: Readonly<Record<PhaseKey, number>> = {
  briefGeneration: 2_000,
  scrapeSummary: 2_000,
  roleExecution: 4_000,
  ceoSynthesis: 6_000,
  jsonExtraction: 8_000,
};

/** The engineConfig key that picks the model of each phase of a round. */
export const PHASE_KEYS: Readonly<Record<ModelTask['phase'], PhaseKey>> = {
  brief: 'briefGeneration',
  scrape: 'scrapeSummary',
  role: 'roleExecution',
  synthesis: 'ceoSynthesis',
  extraction: 'jsonExtraction',
};

/** One of the eight known models. */
export function isKnownModelId(value: unknown): value is KnownModelId {
  return typeof value === 'string' && (ENGINE_MODEL_IDS as readonly string[]).includes(value);
}

const MODEL_ID = new RegExp(MODEL_ID_PATTERN);

/** A model id of the right form (whether a provider serves it is checked when a company chooses it). */
export function isEngineModelId(value: unknown): value is EngineModelId {
  return typeof value === 'string' && MODEL_ID.test(value);
}

/**
 * The model of one phase: the company's engineConfig choice when it names a model id, else the preset's
 * (an unknown preset counts as BALANCED, the default of new companies).
 */
export function modelFor(
  preset: EnginePreset | string,
  engineConfig: EngineConfig | Record<string, unknown> | null | undefined,
  phaseKey: PhaseKey,
): EngineModelId {
  const chosen = engineConfig?.[phaseKey];
  if (isEngineModelId(chosen)) return chosen;
  const models = PRESET_MODELS[preset as EnginePreset] ?? PRESET_MODELS.BALANCED;
  return models[phaseKey];
}

/**
 * The models a phase falls back to, in order, after its own (`modelFor`): the preset's model for the phase when the
 * company chose another, then the platform's list (LLM_FALLBACK_MODELS); the phase's own model left out, at most 3.
 */
export function fallbacksFor(
  preset: EnginePreset | string,
  engineConfig: EngineConfig | Record<string, unknown> | null | undefined,
  phaseKey: PhaseKey,
  platform: readonly EngineModelId[] = [],
): EngineModelId[] {
  const own = modelFor(preset, engineConfig, phaseKey);
  const presetModel = (PRESET_MODELS[preset as EnginePreset] ?? PRESET_MODELS.BALANCED)[phaseKey];
  return [...new Set([presetModel, ...platform])].filter((m) => m !== own).slice(0, 3);
}

const PICO_PER_USD = 1_000_000_000_000n;

/**
 * Exact cost in pico-USD (1e-12 USD): tokens x micro-USD per 1M tokens, all integers, so nothing is rounded
 * however many calls are added up.
 */
export function costPicoUsd(
  model: EngineModelId,
  promptTokens: number,
  completionTokens: number,
  prices?: PriceTable,
): bigint {
  const price = priceOf(model, prices);
  if (!price) throw new RangeError(`unknown model ${String(model)}: no price`);
  for (const [name, n] of [
    ['promptTokens', promptTokens],
    ['completionTokens', completionTokens],
  ] as const) {
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${n}`);
  }
  return (
    BigInt(promptTokens) * BigInt(price.inputMicroUsdPerM) + BigInt(completionTokens) * BigInt(price.outputMicroUsdPerM)
  );
}

/** USD cost of one call: the exact integer cost converted once, to the nearest double. */
export function costOf(
  model: EngineModelId,
  promptTokens: number,
  completionTokens: number,
  prices?: PriceTable,
): number {
  const pico = costPicoUsd(model, promptTokens, completionTokens, prices);
  // One division of two exact doubles is correctly rounded; beyond 2^53 pico-USD (~9,000 USD) split first.
  if (pico <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(pico) / 1e12;
  const whole = pico / PICO_PER_USD;
  const rest = pico % PICO_PER_USD;
  return Number(whole) + Number(rest) / 1e12;
}

/** The provider of a model id: `openai` of `openai/gpt-5`. */
export function providerOf(modelId: KnownModelId): ModelProviderName;
export function providerOf(modelId: string): string;
export function providerOf(modelId: string): string {
  const slash = modelId.indexOf('/');
  return slash < 0 ? modelId : modelId.slice(0, slash);
}

/** The model name a provider's own endpoint takes: `gpt-5` of `openai/gpt-5`. */
export function modelNameOf(modelId: string): string {
  const slash = modelId.indexOf('/');
  return slash < 0 ? modelId : modelId.slice(slash + 1);
}
