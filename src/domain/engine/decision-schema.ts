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
const shape = ajv.compile<ExtractedDecision>({
  type: 'object',
  required: ['directive', 'actions'],
  additionalProperties: false,
  properties: {
    directive: { type: 'string', minLength: 1, maxLength: DECISION_DIRECTIVE_MAX },
    actions: {
      type: 'array',
      maxItems: DECISION_ACTIONS_MAX,
      items: {
        type: 'object',
        required: ['role', 'tool', 'args', 'rationale'],
        additionalProperties: false,
        properties: {
          role: { type: 'string' },
          tool: { type: 'string' },
          args: { type: 'object' },
          rationale: { type: 'string', maxLength: DECISION_RATIONALE_MAX },
        },
      },
    },
  },
});

export type DecisionCheck = { ok: true; value: ExtractedDecision } | { ok: false; error: string };

/**
 * The validator of one round's extraction: the JSON's shape, its directive and rationales condensed to their
 * bounds, each action by one of `roles` (the round's active roles; `CEO` alone when none) with one of `actionTools`
 * (`none` alone when none is enabled), and each tool's arguments.
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
    for (const [i, action] of value.actions.entries()) {
      if (!allowedRoles.includes(action.role)) {
        return { ok: false, error: `actions[${i}].role must be one of ${allowedRoles.join(', ')}` };
      }
      if (!allowedTools.includes(action.tool)) {
        return { ok: false, error: `actions[${i}].tool must be one of ${allowedTools.join(', ')}` };
      }
      const check = argumentValidators.get(action.tool);
      if (check && !check(action.args)) {
        return { ok: false, error: `actions[${i}].args: ${ajv.errorsText(check.errors)}` };
      }
    }
    return { ok: true, value };
  };
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
