// The built-in model's decisions: the CEO's synthesis (a directive honouring the autonomy level, then at most five
// of the roles' proposals, ranked for the round's focus) and its extraction into an ExtractedDecision, which also
// reads the free-form syntheses of remote models.
import { AGENT_ROLES, VETO_TOOL } from '../../../../constants.ts';
import type { ExtractedDecision, ModelTask, Role, RoundContext, ToolSpec } from '../types.ts';
import { argsFit } from './args.ts';
import {
  assess,
  ownDirective,
  pick,
  rolePriority,
  type Situation,
  tactics,
  tokenLine,
  treasuryLine,
} from './situation.ts';
import { proposalsFor, rationaleFor, toolScore } from './tools.ts';
import { isTradingTool } from './trading.ts';

/** At most this many actions leave a synthesis. */
export const MAX_DECISION_ACTIONS = 5;
const DIRECTIVE_LABEL = 'DIRECTIVE:';
const ACTIONS_LABEL = 'ACTIONS:';

type SynthesisProposal = Extract<ModelTask, { phase: 'synthesis' }>['proposals'][number];

/** The directive of the round, by autonomy level. */
export function directiveFor(context: RoundContext, s: Situation = assess(context)): string {
  const { autonomyLevel, ceoPrompt, masterDirective } = context.company;
  if (autonomyLevel === 'HUMAN_DIRECTED') {
    const human = ceoPrompt ?? masterDirective;
    if (human) return human;
  }
  if (autonomyLevel === 'STRATEGY_AUTONOMOUS') {
    const strategy = masterDirective ?? ceoPrompt;
    if (strategy)
      return `${strategy.trim().replace(/[.;:]+$/, '')}. Tactics for cycle ${context.cycle}: ${tactics(s).join('; ')}.`;
  }
  return ownDirective(s);
}

const keyOf = (p: { tool: string; args: unknown }) => `${p.tool}:${JSON.stringify(p.args)}`;

function chooseActions(context: RoundContext, s: Situation, directive: string, proposals: SynthesisProposal[]) {
  const priority = rolePriority(s);
  const directiveWords = new Set(
    directive
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 4),
  );
  const seen = new Set<string>();
  const rolesTaken = new Map<Role, number>();
  const ranked = proposals
    .map((p, i) => {
      const toolWords = p.tool
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/);
      const mentioned = toolWords.some((w) => directiveWords.has(w)) ? 3 : 0;
      const rank = priority.indexOf(p.role);
      // The strategy's trades come first: they are what the round is for when the wallet is funded.
      const trades = isTradingTool(p.tool) ? 100 : 0;
      return { p, i, weight: trades + mentioned - (rank < 0 ? AGENT_ROLES.length : rank) };
    })
    .sort((a, b) => b.weight - a.weight || a.i - b.i);
  const chosen: SynthesisProposal[] = [];
  for (const { p } of ranked) {
    if (chosen.length >= MAX_DECISION_ACTIONS) break;
    if (seen.has(keyOf(p))) continue;
    // Spread the round across roles: a role's second proposal waits until every role had its first (trades excepted:
    // the strategy's moves go together).
    if (
      !isTradingTool(p.tool) &&
      (rolesTaken.get(p.role) ?? 0) >= 1 &&
      ranked.some((r) => !rolesTaken.has(r.p.role) && !seen.has(keyOf(r.p)))
    )
      continue;
    seen.add(keyOf(p));
    rolesTaken.set(p.role, (rolesTaken.get(p.role) ?? 0) + 1);
    chosen.push(p);
  }
  // Second proposals of roles, in rank order, fill what is left.
  for (const { p } of ranked) {
    if (chosen.length >= MAX_DECISION_ACTIONS) break;
    if (seen.has(keyOf(p))) continue;
    seen.add(keyOf(p));
    chosen.push(p);
  }
  if (s.treasuryLevel === 'low' && context.company.autonomyLevel !== 'HUMAN_DIRECTED') return chosen.slice(0, 3);
  return chosen;
}

function assessment(s: Situation): string {
  const opener = pick(s.seed, ['Where we stand:', 'Assessment:', 'The picture this cycle:']);
  return `${opener} ${tokenLine(s)} ${treasuryLine(s)}`;
}

export function synthesis(context: RoundContext, proposals: SynthesisProposal[]): string {
  const s = assess(context);
  const directive = directiveFor(context, s);
  const vetoes = proposals.filter((p) => p.tool === VETO_TOOL);
  const actions = chooseActions(
    context,
    s,
    directive,
    proposals.filter((p) => p.tool !== VETO_TOOL),
  );
  const lines = [assessment(s), '', `${DIRECTIVE_LABEL} ${directive}`, '', ACTIONS_LABEL];
  if (actions.length === 0) lines.push('None this cycle: no role proposed an action that can be carried out.');
  actions.forEach((a, i) => {
    lines.push(`${i + 1}. [${a.role}] ${a.tool} ${JSON.stringify(a.args)} - ${a.rationale.replace(/\s+/g, ' ')}`);
  });
  for (const v of vetoes) lines.push('', `Vetoed by the CRO: ${v.rationale}`);
  const left = proposals.length - vetoes.length - actions.length;
  if (left > 0) lines.push('', `Deferred: ${left} other proposal${left === 1 ? '' : 's'}, to keep the cycle focused.`);
  return lines.join('\n');
}

/** The directive of a synthesis: the text after its `Directive:` label up to its actions, else its first line. */
function directiveOf(text: string): string | undefined {
  const label = /^[\s>*#_-]*\**directive\**\s*(?::|[-\u2013\u2014]\s)\s*\**\s*/im.exec(text);
  if (!label) return undefined;
  const rest = text.slice(label.index + label[0].length);
  const end = /^[\s>*#_-]*\**(actions?|decisions?|deferred)\**\s*:/im.exec(rest);
  const directive = (end ? rest.slice(0, end.index) : rest.split(/\n\s*\n/)[0]!).trim().replace(/\*+$/, '').trim();
  return directive || undefined;
}

/** The JSON object that starts at `start` (a `{`), by matching braces outside strings. */
function jsonObjectAt(text: string, start: number): { value: unknown; end: number } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      try {
        return { value: JSON.parse(text.slice(start, i + 1)), end: i + 1 };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const NAME_CHAR = /[A-Za-z0-9_.:-]/;

/** Where a tool's name stands as a whole word in a line, or -1. */
function toolAt(line: string, name: string): number {
  for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
    const before = line[i - 1];
    const after = line[i + name.length];
    if (
      (before === undefined || !NAME_CHAR.test(before)) &&
      (after === undefined || !NAME_CHAR.test(after) || after === '.' || after === ':')
    ) {
      return i;
    }
  }
  return -1;
}

export function extract(context: RoundContext, text: string, tools: ToolSpec[]): ExtractedDecision {
  const s = assess(context);
  const directive = (
    directiveOf(text) ??
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ??
    directiveFor(context, s)
  ).slice(0, 2000);
  const actionsAt = /^[\s>*#_-]*\**actions?\**\s*:/im.exec(text);
  const body = actionsAt ? text.slice(actionsAt.index + actionsAt[0].length) : text;
  const byLength = [...tools].sort((a, b) => b.name.length - a.name.length);
  const actions: ExtractedDecision['actions'] = [];
  const seen = new Set<string>();
  for (const line of body.split('\n')) {
    if (actions.length >= MAX_DECISION_ACTIONS) break;
    if (/^\s*deferred\b/i.test(line)) break;
    let found: { tool: ToolSpec; at: number } | undefined;
    for (const tool of byLength) {
      const at = toolAt(line, tool.name);
      if (at >= 0 && (!found || at < found.at)) found = { tool, at };
    }
    if (!found) continue;
    const { tool, at } = found;
    const roleMatch = /\b(CFO|CTO|CMO|COO|CSO|CISO|CRO)\b/.exec(line);
    const role: Role = (roleMatch?.[1] as Role | undefined) ?? bestRoleFor(tool, s);
    const brace = line.indexOf('{', at + tool.name.length);
    const parsed = brace >= 0 ? jsonObjectAt(line, brace) : undefined;
    let args = parsed?.value as Record<string, unknown> | undefined;
    let rationale = (parsed ? line.slice(parsed.end) : line.slice(at + tool.name.length))
      .replace(/^[\s\-–—:;,.)]+/, '')
      .trim();
    if (args === undefined || typeof args !== 'object' || Array.isArray(args) || !argsFit(tool, args)) {
      // The synthesis named the tool but not usable arguments: make them from the schema, as the role would.
      const own = proposalsFor(role, [tool], s)[0];
      if (!own) continue;
      args = own.args;
      if (!rationale) rationale = own.rationale;
    }
    if (seen.has(keyOf({ tool: tool.name, args }))) continue;
    seen.add(keyOf({ tool: tool.name, args }));
    actions.push({ role, tool: tool.name, args, rationale: rationale || rationaleFor(role, tool, s, args) });
  }
  return { directive, actions };
}

function bestRoleFor(tool: ToolSpec, s: Situation): Role {
  let best: Role = 'COO';
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const role of AGENT_ROLES) {
    const score = toolScore(tool, role, s);
    if (score > bestScore) {
      best = role;
      bestScore = score;
    }
  }
  return best;
}
