// Whether a model is served, for the engine's checks of its presets: by the endpoint its id routes to, checked
// against that endpoint's `/models` list (read at most every few minutes, bounded like a call), or by the built-in
// model when no endpoint serves it.
import type { ModelEndpoint } from '../../../config.ts';
import { isKnownModelId, providerOf } from './catalog.ts';
import { type ModelEndpoints, routeOf } from './route.ts';
import { USER_AGENT } from './transport.ts';
import type { ModelProvider, ModelServed } from './types.ts';

/** How long an endpoint's model list is kept before it is read again. */
const MODEL_LIST_TTL_MS = 300_000;

export interface ServesOptions extends ModelEndpoints {
  fallback: ModelProvider | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  appHeaders: Record<string, string>;
}

/** A provider's `serves`, with its own cache of the endpoints' model lists. */
export function createServes(options: ServesOptions): (model: string) => Promise<ModelServed> {
  const { timeoutMs, maxResponseBytes, appHeaders } = options;
  // Each endpoint's model list, read at most every MODEL_LIST_TTL_MS (a list that could not be read is not kept).
  const lists = new Map<string, { at: number; ids: Set<string> }>();
  async function modelList(endpoint: ModelEndpoint): Promise<Set<string> | undefined> {
    const kept = lists.get(endpoint.baseUrl);
    if (kept && performance.now() - kept.at < MODEL_LIST_TTL_MS) return kept.ids;
    try {
      const res = await fetch(`${endpoint.baseUrl.replace(/\/+$/, '')}/models`, {
        headers: {
          accept: 'application/json',
          'user-agent': USER_AGENT,
          ...appHeaders,
          ...(endpoint.apiKey && { authorization: `Bearer ${endpoint.apiKey}` }),
        },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return undefined;
      }
      const text = await res.text();
      if (text.length > maxResponseBytes) return undefined;
      const data = (JSON.parse(text) as { data?: unknown })?.data;
      if (!Array.isArray(data)) return undefined;
      const ids = new Set(
        data.flatMap((m) => (typeof (m as { id?: unknown })?.id === 'string' ? [(m as { id: string }).id] : [])),
      );
      lists.set(endpoint.baseUrl, { at: performance.now(), ids });
      return ids;
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a model is served: by the endpoint its provider's id routes to, checked against that endpoint's
   * `/models` list when it has one (an endpoint without a readable list is taken at its word); a model no endpoint
   * serves only when it is one of the eight known, which the built-in model then answers.
   */
  async function serves(model: string): Promise<ModelServed> {
    const route = routeOf(model, options);
    if (!route) {
      return isKnownModelId(model) && options.fallback
        ? { served: true, listed: false }
        : {
            served: false,
            listed: false,
            reason: `no endpoint serves ${providerOf(model)} models and there is no default gateway`,
          };
    }
    const ids = await modelList(route.endpoint);
    if (!ids) return { served: true, listed: false };
    if (ids.has(route.model) || ids.has(model)) return { served: true, listed: true };
    const where = route.via === 'gateway' ? 'the gateway' : `the ${route.via} endpoint`;
    return { served: false, listed: true, reason: `${where} does not list ${route.model} among its models` };
  }
  return serves;
}
