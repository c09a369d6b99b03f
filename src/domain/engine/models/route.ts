// Where a model's calls go: the endpoint its provider's id routes to (its provider's own, else the default gateway),
// the lane that holds its calls in flight, and, when spreading, the order the models of a call are tried in.
import type { ModelEndpoint } from '../../../config.ts';
import { MODEL_PROVIDERS, type ModelProviderName } from '../../../constants.ts';
import type { ModelRoute } from './attempt.ts';
import { modelNameOf, providerOf } from './catalog.ts';
import type { ProviderLimiter } from './limiter.ts';
import type { EngineModelId } from './types.ts';

/** The endpoints configured: the default gateway and the per-provider ones. */
export interface ModelEndpoints {
  gateway?: ModelEndpoint | undefined;
  endpoints?: Partial<Record<ModelProviderName, ModelEndpoint>> | undefined;
}

const isProviderName = (name: string): name is ModelProviderName =>
  (MODEL_PROVIDERS as readonly string[]).includes(name);

/** Where a model's calls go, or undefined when nothing is configured for it. */
export function routeOf(modelId: EngineModelId, options: ModelEndpoints): ModelRoute | undefined {
  const provider = providerOf(modelId);
  const own = isProviderName(provider) ? options.endpoints?.[provider] : undefined;
  if (own && isProviderName(provider)) return { endpoint: own, via: provider, model: modelNameOf(modelId) };
  if (options.gateway) return { endpoint: options.gateway, via: 'gateway', model: modelId };
  return undefined;
}

/** The lane of a model's calls: its endpoint, or the gateway for its provider; none when nothing serves it. */
export function laneOf(model: EngineModelId, options: ModelEndpoints): string | undefined {
  const route = routeOf(model, options);
  return route ? `${route.via}:${providerOf(model)}` : undefined;
}

/** A lane that takes a call now: a slot free, nobody waiting, no 429 pause. */
function free(limiter: ProviderLimiter, lane: string): boolean {
  const s = limiter.state(lane);
  return s.inFlight < s.limit && s.waiting === 0 && s.pausedForMs === 0;
}

/**
 * The models in the order they are tried: the request's own first, unless its lane is full and a model of its
 * fallback list has a free lane: that one first, then the rest in their order.
 */
export function spreadOrder(
  candidates: EngineModelId[],
  options: ModelEndpoints,
  limiter: ProviderLimiter,
): EngineModelId[] {
  if (candidates.length < 2) return candidates;
  const own = laneOf(candidates[0]!, options);
  if (own === undefined || free(limiter, own)) return candidates;
  const i = candidates.findIndex((m, j) => {
    const lane = j > 0 ? laneOf(m, options) : undefined;
    return lane !== undefined && lane !== own && free(limiter, lane);
  });
  return i > 0 ? [candidates[i]!, ...candidates.filter((_, j) => j !== i)] : candidates;
}
