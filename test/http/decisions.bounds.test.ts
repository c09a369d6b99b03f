// Every value the settings routes accept is usable by every stage after them: a company whose CEO directive,
// master directive, autonomy, engine models and tool lists sit anywhere within their bounds (the maxima included)
// still completes its decision rounds with the built-in model. The model's extracted directive and rationales are
// condensed to the decision's bounds instead of failing the round.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUTONOMY_LEVELS,
  CEO_PROMPT_MAX,
  DECISION_DIRECTIVE_MAX,
  ENGINE_CONFIG_KEYS,
  ENGINE_MODEL_IDS,
  ENGINE_PRESETS,
  MASTER_DIRECTIVE_MAX,
  TOOLS_LIST_MAX,
} from '../../src/constants.ts';
import { TOOLS } from '../../src/domain/engine/tools.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany as staffed } from '../helpers/companies.ts';

// Rounds here run back to back, many per company: neither the cooldown nor the gas budget is under test.
const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0', COMPANY_GAS_BUDGET: '1000000000000' } });

/** A staffed company of dev account `account`: its id. */
const staffedCompany = async (account: number) => (await staffed(t, account)).id;

async function settle(id: string, account: number, directive: object, engine: object) {
  const d = await signed(t.app, account, 'PATCH', `/api/companies/${id}`, directive);
  expect(d.statusCode, d.body).toBe(200);
  const e = await signed(t.app, account, 'PATCH', `/api/companies/${id}/engine`, engine);
  expect(e.statusCode, e.body).toBe(200);
}

async function runRound(id: string, account: number) {
  const res = await signed(t.app, account, 'POST', `/api/companies/${id}/decisions/run`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** Text of exactly `length` UTF-16 units mixing words, accents, line breaks and characters outside the BMP. */
const textOf = (length: number) => {
  const words = ['launch', 'the', 'treasury', 'é', 'growth\n', '😀', '-', 'market'];
  let s = '';
  for (let i = 0; s.length < length; i++) s += `${words[i % words.length]} `;
  s = s.slice(0, length);
  // Never end inside a surrogate pair: the routes refuse an unpaired surrogate.
  return /[\ud800-\udbff]$/.test(s) ? `${s.slice(0, -1)}x` : s;
};

describe('decision rounds at the settings bounds', () => {
  let human: string;
  let strategy: string;

  it('completes a HUMAN_DIRECTED round whose CEO directive is the longest the route accepts', async () => {
    human = await staffedCompany(2);
    await settle(
      human,
      2,
      { autonomyLevel: 'HUMAN_DIRECTED', ceoPrompt: textOf(CEO_PROMPT_MAX) },
      { enginePreset: 'PREMIUM' },
    );
    const round = await runRound(human, 2);
    expect(round.status, round.error).toBe('COMPLETE');
    // The human's directive is the round's directive, word for word.
    expect(round.ceoDecision.directive).toBe(textOf(CEO_PROMPT_MAX));
  });

  it('completes a STRATEGY_AUTONOMOUS round whose master directive is the longest the route accepts', async () => {
    strategy = await staffedCompany(3);
    await settle(
      strategy,
      3,
      { autonomyLevel: 'STRATEGY_AUTONOMOUS', ceoPrompt: null },
      { masterDirective: textOf(MASTER_DIRECTIVE_MAX), autonomyLevel: 'STRATEGY_AUTONOMOUS' },
    );
    const round = await runRound(strategy, 3);
    expect(round.status, round.error).toBe('COMPLETE');
    expect(round.ceoDecision.directive.length).toBeGreaterThan(0);
    expect(round.ceoDecision.directive.length).toBeLessThanOrEqual(DECISION_DIRECTIVE_MAX);
  });

  it('completes a round for settings drawn anywhere within their bounds (property)', async () => {
    const id = await staffedCompany(4);
    const toolNames = TOOLS.map((tool) => tool.name);
    const bounded = (max: number) =>
      fc.oneof(fc.constant(max), fc.constant(max - 1), fc.integer({ min: 0, max }), fc.constant(0));
    const settings = fc.record({
      autonomyLevel: fc.constantFrom(...AUTONOMY_LEVELS),
      ceoPrompt: fc.oneof(fc.constant(null), bounded(CEO_PROMPT_MAX).map(textOf)),
      engineConfig: fc.oneof(
        fc.constant(null),
        fc.dictionary(fc.constantFrom(...ENGINE_CONFIG_KEYS), fc.constantFrom(...ENGINE_MODEL_IDS)),
      ),
      toolkitConfig: fc.oneof(
        fc.constant(null),
        fc.record(
          {
            enabledTools: fc.array(fc.oneof(fc.constantFrom(...toolNames), fc.constant('x'.repeat(64))), {
              maxLength: TOOLS_LIST_MAX,
            }),
            disabledTools: fc.array(fc.constantFrom(...toolNames), { maxLength: TOOLS_LIST_MAX }),
          },
          { requiredKeys: [] },
        ),
      ),
      enginePreset: fc.constantFrom(...ENGINE_PRESETS),
      masterDirective: bounded(MASTER_DIRECTIVE_MAX).map(textOf),
    });
    await fc.assert(
      fc.asyncProperty(settings, async (s) => {
        await settle(
          id,
          4,
          {
            autonomyLevel: s.autonomyLevel,
            ceoPrompt: s.ceoPrompt,
            engineConfig: s.engineConfig,
            toolkitConfig: s.toolkitConfig,
          },
          { enginePreset: s.enginePreset, masterDirective: s.masterDirective },
        );
        const round = await runRound(id, 4);
        expect(round.status, `${round.failedPhase}: ${round.error}`).toBe('COMPLETE');
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
