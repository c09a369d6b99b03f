// The built-in model: answers every phase of a round from its structured task, with no network and no cost, the
// same answer for the same task. It runs the engine when no LLM endpoint is configured (development, tests, demos)
// and reads like a cautious operator: it looks at the token's stage, the treasury and the market, honours the
// company's autonomy level, and proposes only tools it was offered, with arguments that pass their schemas.
import { AGENT_ROLES, ENGINE_MODEL_IDS } from '../../../../constants.ts';
import type {
  ChatRequest,
  ChatResult,
  ModelProvider,
  ModelTask,
  Role,
  RoleAnswer,
  RoundContext,
  ToolSpec,
} from '../types.ts';
import { extract, synthesis } from './decision.ts';
import { assess, type Situation, tokenLine, treasuryLine, usd } from './situation.ts';
import { proposalsFor } from './tools.ts';
import { tradingProposals } from './trading.ts';

export { directiveFor, MAX_DECISION_ACTIONS } from './decision.ts';

/** The name a phase records when the built-in model answered it. */
export const BUILTIN_MODEL = 'builtin';

export function createBuiltinProvider(): ModelProvider {
  return {
    kind: 'builtin',
    async complete(request: ChatRequest): Promise<ChatResult> {
      if (request.signal?.aborted) throw request.signal.reason;
      const started = performance.now();
      const content = answer(request.task);
      return {
        content,
        // No language model ran: the built-in one is named as itself, with no tokens and no cost.
        model: BUILTIN_MODEL,
        provider: 'builtin',
        promptTokens: 0,
        completionTokens: 0,
        cost: 0,
        latencyMs: Math.round(performance.now() - started),
      };
    },
    // With no endpoint, the built-in model answers the eight known ids; no other model is served.
    async serves(model) {
      return (ENGINE_MODEL_IDS as readonly string[]).includes(model)
        ? { served: true, listed: false }
        : {
            served: false,
            listed: false,
            reason: 'no LLM endpoint is configured: the built-in model answers the eight known model ids only',
          };
    },
  };
}

/** The built-in answer to a task: text for brief, scrape and synthesis; JSON for role and extraction. */
export function answer(task: ModelTask): string {
  switch (task.phase) {
    case 'brief':
      return brief(task.context);
    case 'scrape':
      return scrapeSummary(task.context, task.sources);
    case 'role':
      return JSON.stringify(roleAnswer(task.context, task.role, task.tools));
    case 'synthesis':
      return synthesis(task.context, task.proposals);
    case 'extraction':
      return JSON.stringify(extract(task.context, task.synthesis, task.tools));
  }
}

// ---- brief -----------------------------------------------------------------------------------------------------

function standingDirective(context: RoundContext): string | null {
  const { autonomyLevel, ceoPrompt, masterDirective } = context.company;
  if (autonomyLevel === 'HUMAN_DIRECTED' && (ceoPrompt ?? masterDirective)) {
    return `The owner directs this company: "${ceoPrompt ?? masterDirective}".`;
  }
  if (autonomyLevel === 'STRATEGY_AUTONOMOUS' && (masterDirective ?? ceoPrompt)) {
    return `Standing strategy from the owner: "${masterDirective ?? ceoPrompt}"; tactics are the team's call.`;
  }
  if (autonomyLevel === 'FULLY_AUTONOMOUS')
    return 'The company runs fully autonomously: the CEO sets its own directive.';
  return null;
}

function focusLine(s: Situation): string {
  switch (s.focus) {
    case 'fund-treasury':
      return 'Priority: get a funded treasury in place; nothing else can be paid for until then.';
    case 'preserve-treasury':
      return 'Priority: protect the little cash left; free reads only, no paid campaigns.';
    case 'prepare-launch':
      return `Priority: prepare the ${s.symbol} launch while costs are still low.`;
    case 'push-graduation':
      return `Priority: carry ${s.symbol} over the graduation threshold.`;
    case 'build-volume':
      return `Priority: bring buyers back to a quiet ${s.symbol} market.`;
    case 'grow-after-graduation':
      return `Priority: keep ${s.symbol}'s pool active now that it has graduated.`;
    case 'grow-score':
      return `Priority: steady progress that lifts the platform score.`;
  }
}

export function brief(context: RoundContext): string {
  const s = assess(context);
  const lines = [
    `${context.company.name} (${context.company.category}, ${context.company.status}), cycle ${context.cycle}, platform score ${context.company.platformScore.toFixed(1)}.`,
    tokenLine(s),
    treasuryLine(s),
  ];
  const standing = standingDirective(context);
  if (standing) lines.push(standing);
  if (context.lastDirective) lines.push(`Last cycle's directive: "${context.lastDirective}".`);
  lines.push(
    s.missingRoles.length === 0
      ? 'All seven C-suite roles are staffed.'
      : `${AGENT_ROLES.length - s.missingRoles.length} of ${AGENT_ROLES.length} roles are staffed (missing: ${s.missingRoles.join(', ')}).`,
  );
  lines.push(focusLine(s));
  return lines.join(' ');
}

// ---- scrape ----------------------------------------------------------------------------------------------------

function scalar(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? usdLike(value) : undefined;
  if (typeof value === 'string') return value.length > 60 ? `${value.slice(0, 57)}...` : value;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function usdLike(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e15 ? n.toLocaleString('en-US') : usd(n);
}

function describeObject(o: Record<string, unknown>, max = 6): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(o)) {
    const text = scalar(v);
    if (text !== undefined) parts.push(`${k} ${text}`);
    if (parts.length >= max) break;
  }
  return parts.length ? parts.join(', ') : `${Object.keys(o).length} fields`;
}

function describeList(list: unknown[]): string {
  if (list.length === 0) return 'no entries';
  const objects = list.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x));
  if (objects.length === 0) {
    return `${list.length} entries: ${list
      .slice(0, 5)
      .map((x) => scalar(x) ?? '...')
      .join(', ')}`;
  }
  // Sum the numeric fields and count the values of short text fields (side: buy/sell and the like).
  const sums = new Map<string, number>();
  const counts = new Map<string, Map<string, number>>();
  for (const o of objects) {
    for (const [k, v] of Object.entries(o)) {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
      if (n !== undefined && Number.isFinite(n)) sums.set(k, (sums.get(k) ?? 0) + n);
      else if (typeof v === 'string' && v.length <= 16) {
        const m = counts.get(k) ?? new Map<string, number>();
        m.set(v, (m.get(v) ?? 0) + 1);
        counts.set(k, m);
      }
    }
  }
  const parts = [`${list.length} entries`];
  for (const m of counts.values()) {
    if (m.size > 1 && m.size <= 5) parts.push([...m].map(([v, n]) => `${n} ${v}`).join(' / '));
  }
  for (const [k, total] of [...sums].slice(0, 3)) {
    if (/price|rate/i.test(k)) {
      const last = objects.at(-1)?.[k];
      if (last !== undefined) parts.push(`last ${k} ${scalar(Number(last))}`);
    } else if (!/id|time|block|index|timestamp/i.test(k)) parts.push(`total ${k} ${usdLike(total)}`);
  }
  return parts.join('; ');
}

function describe(data: unknown): string {
  if (data === null || data === undefined) return 'no data';
  if (Array.isArray(data)) return describeList(data);
  if (typeof data === 'object') {
    const o = data as Record<string, unknown>;
    const lists = Object.entries(o).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
    const head = lists.length === Object.keys(o).length ? [] : [describeObject(o)];
    const tail = lists.slice(0, 2).map(([k, v]) => `${k}: ${describeList(v)}`);
    return [...head, ...tail].join('; ');
  }
  return scalar(data) ?? String(data);
}

export function scrapeSummary(context: RoundContext, sources: { name: string; data: unknown }[]): string {
  const s = assess(context);
  const lines =
    sources.length === 0
      ? ['No outside source answered this round; the read rests on the company and chain data alone.']
      : [`Market read for ${context.company.name} from ${sources.length} source${sources.length === 1 ? '' : 's'}:`];
  for (const source of sources) lines.push(`- ${source.name}: ${describe(source.data)}.`);
  const market =
    s.stage === 'no-token'
      ? `Without a token, the read is about the ${context.company.category.toLowerCase().replace(/_/g, ' ')} field rather than a chart.`
      : s.market === 'quiet'
        ? `${s.symbol} is quiet: ${usd(s.volume)} USDC over ${s.trades} trades in 24 h.`
        : s.market === 'hot'
          ? `${s.symbol} is busy: ${usd(s.volume)} USDC over ${s.trades} trades in 24 h.`
          : `${s.symbol} trades steadily: ${usd(s.volume)} USDC over ${s.trades} trades in 24 h.`;
  lines.push(`Takeaway: ${market}`);
  return lines.join('\n');
}

// ---- role ------------------------------------------------------------------------------------------------------

/** The role's trading first (trading.ts), then what the generic tool picker finds: at most two proposals. */
export function roleAnswer(context: RoundContext, role: Role, tools: ToolSpec[]): RoleAnswer {
  const trading = tradingProposals(role, tools, context);
  return { proposals: [...trading, ...proposalsFor(role, tools, assess(context))].slice(0, 2) };
}
