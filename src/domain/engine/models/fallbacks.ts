// What falling back from one model to the next needs: which failures another model may not have, the bills of the
// models tried before carried into the answer or the last error, and OpenRouter's own fields for its fallbacks.
import { type ChatRequest, type EngineModelId, ModelError } from './types.ts';

/** What failed a call in a way another model may not: the engine tries the next model of the list. */
const FALLBACK_KINDS = new Set(['timeout', 'network', 'http', 'empty', 'malformed']);
export const fallsBack = (err: ModelError) =>
  FALLBACK_KINDS.has(err.kind) &&
  (err.kind !== 'http' || err.status === undefined || err.status === 408 || err.status === 429 || err.status >= 500);

/** A failure with the bills of the models tried before it added to its own. */
export function withCarried(
  err: unknown,
  carried: { prompt: number; completion: number; cost: number; estimated: boolean; costUnknown?: boolean },
) {
  if (!(err instanceof ModelError) || (carried.cost === 0 && carried.prompt === 0 && !carried.costUnknown)) return err;
  const spent = err.spent ?? { promptTokens: 0, completionTokens: 0, cost: 0 };
  return new ModelError(
    err.kind,
    err.message,
    err.status,
    {
      promptTokens: spent.promptTokens + carried.prompt,
      completionTokens: spent.completionTokens + carried.completion,
      cost: spent.cost + carried.cost,
      ...((carried.estimated || spent.estimated) && { estimated: true }),
      ...((carried.costUnknown || spent.costUnknown) && { costUnknown: true }),
    },
    err.answeredBy,
  );
}

/**
 * OpenRouter's own fields: the `models` list it falls back along (the request's model first), and, when a schema or
 * tools are sent, `provider.require_parameters` so no upstream that would silently drop them is chosen.
 */
export function openRouterFields(request: ChatRequest, models: EngineModelId[] | undefined): Record<string, unknown> {
  const strict = (request.json === true && request.schema !== undefined) || (request.tools?.length ?? 0) > 0;
  return {
    ...(models && { models }),
    ...(strict && { provider: { require_parameters: true } }),
  };
}
