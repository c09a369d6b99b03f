// Extraction keeps what is valid: a decision with one valid action and three invalid ones (an amount as a number,
// an extra field, keys in another language) executes the valid one, refuses each invalid one with its reason in the
// phase's notes, and asks no repair; only an answer with nothing valid is repaired, then fails. A role's tool call
// whose arguments are not JSON is refused with a note, not dropped silently. Strict structured output goes through
// the gateway for Anthropic's models too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineDeps } from '../../../src/domain/engine/context.ts';
import { decisionValidator } from '../../../src/domain/engine/decision-schema.ts';
import { createOpenAiCompatibleProvider } from '../../../src/domain/engine/models/openai.ts';
import { requestBody } from '../../../src/domain/engine/models/request.ts';
import { runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';
import { type FakeLlm, llmReply, phaseOf, roleOf, roundResponder, startFakeLlm } from '../../helpers/fake-llm.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0' } });
let fake: FakeLlm;
let companyId: string;
const engine = (): EngineDeps => ({
  ...t.container,
  models: createOpenAiCompatibleProvider({ gateway: { baseUrl: fake.url }, timeoutMs: 5_000, maxRetries: 0 }),
});
const publish = { role: 'CMO', tool: 'publish_update', args: { message: 'We ship.' }, rationale: 'reach' };

beforeAll(async () => {
  companyId = (await staffedCompany(t, 1, { name: 'Partial Co' })).id;
  fake = await startFakeLlm();
});
afterAll(() => fake?.close());

describe('decisionValidator', () => {
  const validate = decisionValidator(['publish_update', 'buy_token'], ['CFO', 'CMO']);
  it('keeps the valid actions and refuses each invalid one with its reason', () => {
    const check = validate(llmReply.mixedDecision([publish]).content as string);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.value.actions).toEqual([publish]);
    expect(check.refused.map((r) => [r.index, r.tool, r.reason])).toEqual([
      [1, 'buy_token', expect.stringMatching(/args.*usdc.*string/)],
      [2, 'publish_update', expect.stringMatching(/additional properties/)],
      [3, undefined, expect.stringMatching(/required property 'role'/)],
    ]);
  });
  it('is not ok when no action is valid, and ok with no actions at all', () => {
    const none = validate(JSON.stringify({ directive: 'x', actions: [{ ...publish, role: 'CEO' }] }));
    expect(none).toEqual({ ok: false, error: expect.stringMatching(/actions\[0\]: role must be one of CFO, CMO/) });
    expect(validate(JSON.stringify({ directive: 'Hold.', actions: [] }))).toMatchObject({ ok: true, refused: [] });
  });
  it('keeps the first valid actions up to the limit and refuses the rest', () => {
    const check = validate(JSON.stringify({ directive: 'x', actions: Array.from({ length: 12 }, () => publish) }));
    expect(check.ok && check.value.actions.length).toBeGreaterThan(0);
    expect(check.ok && check.refused.every((r) => /past the limit/.test(r.reason))).toBe(true);
  });
});

describe('a round whose decision is partly invalid', () => {
  it('executes the valid action, refuses the others with reasons, and asks no repair', async () => {
    fake.reset();
    fake.setDefault(roundResponder({ overrides: { extraction: () => llmReply.mixedDecision([publish]) } }));
    const deps = engine();
    const done = await runRound(deps, await startRound(deps, companyId, 'MANUAL'));
    expect(done.status, done.error ?? '').toBe('COMPLETE');
    expect(done.actions).toEqual([publish]);
    expect(done.actionsExecuted).toHaveLength(1);
    const notes = done.phases!.find((p) => p.phase === 'extraction')!.notes ?? [];
    expect(notes).toEqual([
      expect.stringMatching(/^refused CFO buy_token \(actions\[1\]\): args.*usdc.*string/),
      expect.stringMatching(/^refused CMO publish_update \(actions\[2\]\).*additional properties/),
      expect.stringMatching(/^refused \? \? \(actions\[3\]\).*required property 'role'/),
    ]);
    expect(fake.requests.filter((r) => phaseOf(r) === 'extraction')).toHaveLength(1);
  });

  it("refuses a role's tool call whose arguments are not JSON, with a note", async () => {
    fake.reset();
    const answer = roundResponder();
    fake.setDefault((request) =>
      phaseOf(request) === 'role' && roleOf(request) === 'CMO'
        ? llmReply.rawToolCalls([
            { name: 'publish_update', raw: '{"message": "half' },
            { name: 'read_token_price', raw: '{}' },
          ])
        : answer(request),
    );
    const deps = engine();
    const done = await runRound(deps, await startRound(deps, companyId, 'MANUAL'));
    expect(done.status, done.error ?? '').toBe('COMPLETE');
    const notes = done.phases!.find((p) => p.phase === 'roles')!.notes ?? [];
    expect(notes).toContainEqual(
      expect.stringMatching(
        /^CMO: refused publish_update: its arguments are not valid JSON: "\{\\"message\\": \\"half"/,
      ),
    );
  });
});

describe('strict structured output', () => {
  it("goes through the gateway for Anthropic's models, not to Anthropic's own endpoint (which ignores it)", () => {
    const request = {
      model: 'anthropic/claude-sonnet-4.5' as const,
      messages: [],
      task: { phase: 'extraction' as const },
      json: true,
      schema: { name: 'decision', schema: { type: 'object', properties: { a: { type: 'string' } } } },
    };
    const viaGateway = requestBody({ model: 'anthropic/claude-sonnet-4.5', via: 'gateway' }, request as never);
    expect(viaGateway.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    const direct = requestBody({ model: 'claude-sonnet-4.5', via: 'anthropic' }, request as never);
    expect(direct.response_format).toBeUndefined();
  });
});
