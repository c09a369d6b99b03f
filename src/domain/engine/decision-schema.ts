// The decision a round's extraction phase must produce, checked with validators compiled once per process. Which
// roles and tools a round allows depends on the company, so those are checked in code against the round's lists,
// not by a schema compiled per round (Ajv keeps every schema it compiles: one per round grew the heap without end).
import { Ajv } from 'ajv';
import { DECISION_ACTIONS_MAX, DECISION_DIRECTIVE_MAX, DECISION_RATIONALE_MAX } from '../../constants.ts';
import { storableJson } from '../../text.ts';
import { condense } from './condense.ts';
import { withoutNulls } from './models/request.ts';
import type { AnswerSchema, ExtractedDecision } from './models/types.ts';
import { TOOLS, type Tool } from './tools.ts';

const ajv = new Ajv({ allErrors: false, strict: false });
/** Each tool's argument validator. */
const argumentValidators = new Map(TOOLS.map((t) => [t.name, ajv.compile(t.parameters)]));
/** The answer as a whole: a directive and a list of actions (each action is judged on its own below). */
const shape = ajv.compile<{ directive: string; actions: unknown[] }>({
  type: 'object',
  required: ['directive', 'actions'],
  properties: {
    directive: { type: 'string', minLength: 1, maxLength: DECISION_DIRECTIVE_MAX },
    actions: { type: 'array' },
  },
});
/** One action: exactly these four fields. */
const actionShape = ajv.compile<ExtractedDecision['actions'][number]>({
  type: 'object',
  required: ['role', 'tool', 'args', 'rationale'],
  additionalProperties: false,
  properties: {
    role: { type: 'string' },
    tool: { type: 'string' },
    args: { type: 'object' },
    rationale: { type: 'string', maxLength: DECISION_RATIONALE_MAX },
  },
});

/** An action of the answer that was not kept, and why. */
export interface RefusedAction {
  index: number;
  role?: string | undefined;
  tool?: string | undefined;
  reason: string;
}

/**
 * `ok`: the directive and the valid actions, with each invalid one refused and its reason (an answer whose actions
 * are all invalid is not ok: there is nothing to keep). Not ok: the answer as a whole is unusable.
 */
export type DecisionCheck =
  | { ok: true; value: ExtractedDecision; refused: RefusedAction[] }
  | { ok: false; error: string };

/**
 * The validator of one round's extraction: the JSON's shape, its directive and rationales condensed to their
 * bounds, then each action on its own: by one of `roles` (the round's active roles; `CEO` alone when none) with one
 * of `actionTools` (`none` alone when none is enabled), its arguments fitting the tool's, within the first
 * DECISION_ACTIONS_MAX. Valid actions are kept, invalid ones refused each with its reason.
 */
export function decisionValidator(actionTools: string[], roles: string[]): (content: string) => DecisionCheck {
  const allowedRoles = roles.length > 0 ? roles : ['CEO'];
  const allowedTools = actionTools.length > 0 ? actionTools : ['none'];
  return (content) => {
    let value: unknown;
    try {
      // A null is how strict structured output says "absent" (models/request.ts).
      value = condensed(storableJson(withoutNulls(JSON.parse(content))));
    } catch {
      return { ok: false, error: 'not JSON' };
    }
    if (!shape(value)) return { ok: false, error: ajv.errorsText(shape.errors) };
    const kept: ExtractedDecision['actions'] = [];
    const refused: RefusedAction[] = [];
    for (const [index, action] of value.actions.entries()) {
      const named = action as { role?: unknown; tool?: unknown } | null;
      const who = {
        index,
        ...(typeof named?.role === 'string' && { role: named.role.slice(0, 32) }),
        ...(typeof named?.tool === 'string' && { tool: named.tool.slice(0, 64) }),
      };
      const reason = actionError(action, allowedRoles, allowedTools, index);
      if (reason) refused.push({ ...who, reason });
      else if (kept.length >= DECISION_ACTIONS_MAX) {
        refused.push({ ...who, reason: `past the limit of ${DECISION_ACTIONS_MAX} actions a round` });
      } else kept.push(action as ExtractedDecision['actions'][number]);
    }
    if (kept.length === 0 && refused.length > 0) {
      return { ok: false, error: refused.map((r) => `actions[${r.index}]: ${r.reason}`).join('; ') };
    }
    return { ok: true, value: { directive: value.directive, actions: kept }, refused };
  };
}

function actionError(action: unknown, roles: string[], tools: string[], index: number): string | undefined {
  if (!actionShape(action)) return ajv.errorsText(actionShape.errors, { dataVar: `actions[${index}]` });
  if (!roles.includes(action.role)) return `role must be one of ${roles.join(', ')}`;
  if (!tools.includes(action.tool)) return `tool must be one of ${tools.join(', ')}`;
  const check = argumentValidators.get(action.tool);
  if (check && !check(action.args)) return `args: ${ajv.errorsText(check.errors, { dataVar: 'args' })}`;
  return undefined;
}

/** The directive and each action's rationale of a parsed answer condensed to their bounds; anything else as it is. */
function condensed(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const out: Record<string, unknown> = { ...v };
  if (typeof v.directive === 'string') out.directive = condense(v.directive, DECISION_DIRECTIVE_MAX);
  if (Array.isArray(v.actions)) {
    out.actions = v.actions.map((a) =>
      a !== null && typeof a === 'object' && typeof (a as { rationale?: unknown }).rationale === 'string'
        ? { ...a, rationale: condense((a as { rationale: string }).rationale, DECISION_RATIONALE_MAX) }
        : a,
    );
  }
  return out;
}

/** Why `args` do not fit `tool`'s parameters, or undefined when they do (every proposal is checked, reads too). */
export function argumentError(tool: string, args: unknown): string | undefined {
  const check = argumentValidators.get(tool);
  if (!check) return `unknown tool ${tool}`;
  return check(args) ? undefined : ajv.errorsText(check.errors, { dataVar: 'args' });
}

/**
 * The decision's schema for endpoints with structured output: one branch per enabled action tool, so the model's
 * answer names only tools, roles and arguments that exist (the validator above still checks every answer).
 */
export function decisionAnswerSchema(actionTools: Tool[], roles: string[]): AnswerSchema {
  const allowedRoles = roles.length > 0 ? roles : ['CEO'];
  const branches = actionTools.map((tool) => ({
    type: 'object',
    properties: {
      role: { type: 'string', enum: allowedRoles },
      tool: { type: 'string', enum: [tool.name] },
      args: tool.parameters,
      rationale: { type: 'string', maxLength: DECISION_RATIONALE_MAX },
    },
    required: ['role', 'tool', 'args', 'rationale'],
    additionalProperties: false,
  }));
  return {
    name: 'decision',
    schema: {
      type: 'object',
      properties: {
        directive: { type: 'string', minLength: 1, maxLength: DECISION_DIRECTIVE_MAX },
        actions: {
          type: 'array',
          maxItems: branches.length > 0 ? DECISION_ACTIONS_MAX : 0,
          items:
            branches.length > 0 ? { anyOf: branches } : { type: 'object', properties: {}, additionalProperties: false },
        },
      },
      required: ['directive', 'actions'],
      additionalProperties: false,
    },
  };
}
