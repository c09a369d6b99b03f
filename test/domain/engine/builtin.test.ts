// The built-in model: deterministic answers for every phase of a round, JSON that passes each tool's schema, and
// decisions that follow the company's situation and autonomy level.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { AGENT_ROLES } from '../../../src/constants.ts';
import {
  answer,
  createBuiltinProvider,
  MAX_DECISION_ACTIONS,
} from '../../../src/domain/engine/models/builtin/provider.ts';
import type {
  ChatRequest,
  ExtractedDecision,
  ModelTask,
  Role,
  RoleAnswer,
  RoundContext,
  ToolSpec,
} from '../../../src/domain/engine/models/types.ts';
import { CONTEXTS, context, ENGINE_TOOLS, EXOTIC_TOOLS } from './fixtures.ts';

const ajv = new (Ajv as unknown as typeof Ajv.default)({ strict: false });
(addFormats as unknown as (a: unknown) => void)(ajv);

function expectArgsFit(tools: ToolSpec[], tool: string, args: unknown) {
  const spec = tools.find((t) => t.name === tool);
  expect(spec, `tool ${tool} was offered`).toBeDefined();
  const validate = ajv.compile(spec!.parameters);
  expect(validate(args), `${tool} ${JSON.stringify(args)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

const roleTask = (ctx: RoundContext, role: Role, tools: ToolSpec[] = ENGINE_TOOLS): ModelTask => ({
  phase: 'role',
  context: ctx,
  role,
  brief: answer({ phase: 'brief', context: ctx }),
  market: '',
  tools,
});

function proposalsOf(ctx: RoundContext, tools: ToolSpec[] = ENGINE_TOOLS) {
  return AGENT_ROLES.flatMap((role) =>
    (JSON.parse(answer(roleTask(ctx, role, tools))) as RoleAnswer).proposals.map((p) => ({ role, ...p })),
  );
}

/** One round through every phase of the built-in model. */
function round(ctx: RoundContext, tools: ToolSpec[] = ENGINE_TOOLS) {
  const proposals = proposalsOf(ctx, tools);
  const synthesis = answer({ phase: 'synthesis', context: ctx, brief: '', proposals });
  const decision = JSON.parse(answer({ phase: 'extraction', context: ctx, synthesis, tools })) as ExtractedDecision;
  return { proposals, synthesis, decision };
}

const directiveLine = (synthesis: string) => /^DIRECTIVE: (.*)$/m.exec(synthesis)?.[1];

describe('createBuiltinProvider', () => {
  it('answers every phase the same way for the same task, named as itself, with no tokens and no cost', async () => {
    const provider = createBuiltinProvider();
    expect(provider.kind).toBe('builtin');
    const ctx = CONTEXTS.bonding;
    const proposals = proposalsOf(ctx);
    const tasks: ModelTask[] = [
      { phase: 'brief', context: ctx },
      { phase: 'scrape', context: ctx, sources: [{ name: 'trades', data: [{ side: 'buy', usdcAmount: 10 }] }] },
      roleTask(ctx, 'CFO'),
      { phase: 'synthesis', context: ctx, brief: '', proposals },
      { phase: 'extraction', context: ctx, synthesis: round(ctx).synthesis, tools: ENGINE_TOOLS },
    ];
    for (const task of tasks) {
      const request: ChatRequest = {
        model: 'openai/gpt-5-mini',
        messages: [{ role: 'user', content: 'x'.repeat(400) }],
        task,
        json: task.phase === 'role' || task.phase === 'extraction',
      };
      const a = await provider.complete(request);
      const b = await provider.complete(structuredClone({ ...request, signal: undefined }));
      expect(b.content).toBe(a.content);
      // No language model ran: the configured openai/gpt-5-mini is not named, and no tokens are counted.
      expect(a).toMatchObject({ model: 'builtin', provider: 'builtin', cost: 0, promptTokens: 0, completionTokens: 0 });
      if (request.json) expect(() => JSON.parse(a.content)).not.toThrow();
    }
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(
      createBuiltinProvider().complete({
        model: 'openai/gpt-5',
        messages: [],
        task: { phase: 'brief', context: CONTEXTS.bonding },
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
  });
});

describe('brief', () => {
  it('summarises token, price, volume, treasury, score and directive', () => {
    const ctx = context({
      company: { autonomyLevel: 'HUMAN_DIRECTED', ceoPrompt: 'Grow the holder base in Asia.' },
      lastDirective: 'Hold the treasury.',
    });
    const text = answer({ phase: 'brief', context: ctx });
    for (const part of [
      'Acme Yield',
      'cycle 7',
      '42.5',
      'ACME',
      '0.0042 USDC',
      '42% of the way to graduation',
      '850.00 USDC over 23 trades',
      '2,500 USDC',
      'Grow the holder base in Asia.',
      'Hold the treasury.',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('reads differently with no token, near graduation, a thin treasury or none', () => {
    expect(answer({ phase: 'brief', context: CONTEXTS.noToken })).toMatch(/No token is live yet.*launch/);
    expect(answer({ phase: 'brief', context: CONTEXTS.nearGraduation })).toMatch(
      /91% of the way to graduation, about 900.00 USDC of market cap short.*graduation threshold/,
    );
    expect(answer({ phase: 'brief', context: CONTEXTS.lowTreasury })).toMatch(/120.50 USDC, which is thin/);
    expect(answer({ phase: 'brief', context: CONTEXTS.noTreasury })).toMatch(/No treasury balance is available/);
    expect(answer({ phase: 'brief', context: CONTEXTS.graduated })).toMatch(/graduated into its Uniswap v4 pool/);
    const short = context({ agents: CONTEXTS.bonding.agents.filter((a) => a.role !== 'CISO') });
    expect(answer({ phase: 'brief', context: short })).toMatch(/6 of 7 roles are staffed \(missing: CISO\)/);
  });
});

describe('scrape', () => {
  it("summarises each source's data", () => {
    const text = answer({
      phase: 'scrape',
      context: CONTEXTS.bonding,
      sources: [
        {
          name: 'token-trades',
          data: [
            { side: 'buy', usdcAmount: '12.5', price: '0.0041' },
            { side: 'sell', usdcAmount: 3, price: 0.0042 },
            { side: 'buy', usdcAmount: 4.5, price: 0.0043 },
          ],
        },
        { name: 'staking', data: { totalStaked: 120000, apy: 12.5 } },
        { name: 'news', data: null },
      ],
    });
    expect(text).toContain('- token-trades: 3 entries; 2 buy / 1 sell; total usdcAmount 20; last price 0.0043.');
    expect(text).toContain('- staking: totalStaked 120,000, apy 12.50.');
    expect(text).toContain('- news: no data.');
    expect(text).toMatch(/Takeaway: ACME trades steadily/);
    expect(answer({ phase: 'scrape', context: CONTEXTS.noToken, sources: [] })).toMatch(/No outside source answered/);
  });
});

describe('role', () => {
  it('proposes 1-2 actions per role, only with offered tools, with arguments that pass their schemas', () => {
    for (const ctx of Object.values(CONTEXTS)) {
      for (const role of AGENT_ROLES) {
        const { proposals } = JSON.parse(answer(roleTask(ctx, role))) as RoleAnswer;
        expect(proposals.length).toBeGreaterThanOrEqual(1);
        expect(proposals.length).toBeLessThanOrEqual(2);
        for (const p of proposals) {
          expectArgsFit(ENGINE_TOOLS, p.tool, p.args);
          expect(p.rationale.length).toBeGreaterThan(20);
        }
      }
    }
  });

  it("reaches for each role's own tools", () => {
    const first = (ctx: RoundContext, role: Role) =>
      (JSON.parse(answer(roleTask(ctx, role))) as RoleAnswer).proposals[0]?.tool;
    const ctx = CONTEXTS.bonding;
    expect(first(ctx, 'CFO')).toBe('read_treasury_balance');
    expect(first(ctx, 'CMO')).toBe('publish_update');
    expect(first(ctx, 'CRO')).toBe('scan_token_trades');
    expect(first(ctx, 'CSO')).toBe('scan_platform_tokens');
    expect(['read_token_price', 'read_treasury_balance', 'read_staking_stats']).toContain(first(ctx, 'CTO'));
    expect(['read_token_price', 'read_treasury_balance', 'read_staking_stats']).toContain(first(ctx, 'CISO'));
  });

  it('writes updates and settings that fit the situation', () => {
    const update = (ctx: RoundContext) =>
      (JSON.parse(answer(roleTask(ctx, 'CMO'))) as RoleAnswer).proposals.find((p) => p.tool === 'publish_update')!.args
        .message as string;
    expect(update(CONTEXTS.nearGraduation)).toMatch(/91% of the way to graduation: about 900.00 USDC/);
    expect(update(CONTEXTS.noToken)).toMatch(/launch is being prepared/);
    expect(update(CONTEXTS.graduated)).toMatch(/Uniswap v4 pool: 22,000 USDC of volume/);
    for (const ctx of Object.values(CONTEXTS)) expect(update(ctx).length).toBeLessThanOrEqual(280);

    const strategy = (ctx: RoundContext) =>
      proposalsOf(
        ctx,
        ENGINE_TOOLS.filter((t) => t.name === 'set_agent_strategy'),
      )
        .filter((p) => p.role === 'COO')
        .map((p) => p.args);
    expect(strategy(CONTEXTS.nearGraduation)).toEqual([{ role: 'CMO', preset: 'AGGRESSIVE' }]);
    expect(strategy(CONTEXTS.lowTreasury)).toEqual([{ role: 'CFO', preset: 'CONSERVATIVE' }]);
    // Setting a preset the agent already has changes nothing, so it is not proposed.
    expect(strategy(CONTEXTS.bonding)).toEqual([]);
  });

  it('proposes nothing without tools, and never a token read before there is a token', () => {
    expect(JSON.parse(answer(roleTask(CONTEXTS.bonding, 'CFO', [])))).toEqual({ proposals: [] });
    const tools = proposalsOf(CONTEXTS.noToken).map((p) => p.tool);
    expect(tools).not.toContain('read_token_price');
    expect(tools).not.toContain('scan_token_trades');
  });

  it('fills schemas with patterns, bounds, nested objects, arrays, formats and constants', () => {
    for (const tool of EXOTIC_TOOLS) {
      for (const role of AGENT_ROLES) {
        const { proposals } = JSON.parse(answer(roleTask(CONTEXTS.graduated, role, [tool]))) as RoleAnswer;
        expect(proposals, `${role} with ${tool.name}`).toHaveLength(1);
        expectArgsFit([tool], proposals[0]!.tool, proposals[0]!.args);
      }
    }
  });

  it('keeps money-moving tools out of a thin treasury', () => {
    const tools: ToolSpec[] = [
      ...ENGINE_TOOLS,
      {
        name: 'buy_token',
        description: 'Buys the company token on its curve with treasury USDC.',
        parameters: {
          type: 'object',
          properties: { usdcAmount: { type: 'number', minimum: 1 } },
          required: ['usdcAmount'],
        },
        cost: 0.001,
      },
    ];
    expect(proposalsOf(CONTEXTS.lowTreasury, tools).map((p) => p.tool)).not.toContain('buy_token');
  });
});

describe('synthesis and extraction', () => {
  it('HUMAN_DIRECTED: the directive is the human one, verbatim', () => {
    const ceoPrompt = 'Focus on the Asian market; no paid campaigns: organic growth only.';
    const ctx = context({ company: { autonomyLevel: 'HUMAN_DIRECTED', ceoPrompt, masterDirective: 'ignored' } });
    const { synthesis, decision } = round(ctx);
    expect(directiveLine(synthesis)).toBe(ceoPrompt);
    expect(decision.directive).toBe(ceoPrompt);
    const masterOnly = context({ company: { autonomyLevel: 'HUMAN_DIRECTED', masterDirective: 'Build quietly.' } });
    expect(round(masterOnly).decision.directive).toBe('Build quietly.');
  });

  it('STRATEGY_AUTONOMOUS: the master directive as strategy, with tactics chosen for the situation', () => {
    const masterDirective = 'Become the reference yield vault on the platform';
    const near = round(
      context({ ...CONTEXTS.nearGraduation, company: { autonomyLevel: 'STRATEGY_AUTONOMOUS', masterDirective } }),
    );
    expect(near.decision.directive.startsWith(`${masterDirective}. Tactics for cycle 7:`)).toBe(true);
    expect(near.decision.directive).toMatch(/graduation/);
    const thin = round(
      context({ ...CONTEXTS.lowTreasury, company: { autonomyLevel: 'STRATEGY_AUTONOMOUS', masterDirective } }),
    );
    expect(thin.decision.directive).toMatch(/keep spending to free reads/);
    expect(thin.decision.directive).not.toBe(near.decision.directive);
  });

  it('FULLY_AUTONOMOUS: its own directive, from the situation', () => {
    const directive = (ctx: RoundContext) => round(ctx).decision.directive;
    expect(directive(CONTEXTS.nearGraduation)).toMatch(/^Push ACME through graduation: about 900.00 USDC/);
    expect(directive(CONTEXTS.noToken)).toMatch(/^Prepare the ACMEYIELD token launch/);
    expect(directive(CONTEXTS.lowTreasury)).toMatch(/^Preserve the treasury \(120.50 USDC\)/);
    expect(directive(CONTEXTS.graduated)).toMatch(/^Grow ACME after graduation/);
    expect(directive(CONTEXTS.quiet)).toMatch(/^Revive trading in ACME: 1 trade in 24 h/);
    expect(directive(CONTEXTS.noTreasury)).toMatch(/confirm a funded treasury/);
  });

  it('extracts at most 5 actions, all from the proposals, with offered tools and valid arguments', () => {
    for (const ctx of Object.values(CONTEXTS)) {
      const { proposals, decision } = round(ctx);
      expect(decision.actions.length).toBeGreaterThanOrEqual(1);
      expect(decision.actions.length).toBeLessThanOrEqual(MAX_DECISION_ACTIONS);
      for (const a of decision.actions) {
        expect(proposals).toContainEqual(a);
        expectArgsFit(ENGINE_TOOLS, a.tool, a.args);
      }
      expect(new Set(decision.actions.map((a) => `${a.tool}${JSON.stringify(a.args)}`)).size).toBe(
        decision.actions.length,
      );
    }
    // Graduation first: the CMO's push leads a round near graduation.
    expect(round(CONTEXTS.nearGraduation).decision.actions[0]).toMatchObject({ role: 'CMO', tool: 'publish_update' });
    // A thin treasury keeps the round small.
    expect(round(CONTEXTS.lowTreasury).decision.actions.length).toBeLessThanOrEqual(3);
  });

  it('drops actions whose tool is not offered to the extraction', () => {
    const { synthesis } = round(CONTEXTS.bonding);
    const tools = ENGINE_TOOLS.filter((t) => t.name !== 'publish_update');
    const decision = JSON.parse(answer({ phase: 'extraction', context: CONTEXTS.bonding, synthesis, tools }));
    expect(decision.actions.length).toBeGreaterThan(0);
    expect(decision.actions.map((a: { tool: string }) => a.tool)).not.toContain('publish_update');
  });

  it("reads a remote model's free-form synthesis", () => {
    const synthesis = [
      'After weighing the proposals, here is the plan.',
      '',
      '**Directive:** Double down on graduation marketing while keeping reads cheap.',
      '',
      '**Actions:**',
      '- CMO: publish_update with {"message": "Almost there: ACME is 91% to graduation!"} to rally buyers',
      '- CRO to run scan_token_trades for the last day',
      '- The CFO should call read_treasury_balance.',
      '- Something about a tool we do not have: mint_nft {"id": 1}',
    ].join('\n');
    const decision = JSON.parse(
      answer({ phase: 'extraction', context: CONTEXTS.nearGraduation, synthesis, tools: ENGINE_TOOLS }),
    ) as ExtractedDecision;
    expect(decision.directive).toBe('Double down on graduation marketing while keeping reads cheap.');
    expect(decision.actions.map((a) => [a.role, a.tool])).toEqual([
      ['CMO', 'publish_update'],
      ['CRO', 'scan_token_trades'],
      ['CFO', 'read_treasury_balance'],
    ]);
    expect(decision.actions[0]!.args).toEqual({ message: 'Almost there: ACME is 91% to graduation!' });
    expect(decision.actions[0]!.rationale).toBe('to rally buyers');
    for (const a of decision.actions) expectArgsFit(ENGINE_TOOLS, a.tool, a.args);
  });

  it('keeps at most 5 of many proposals, spread across roles', () => {
    const ctx = CONTEXTS.bonding;
    const proposals = AGENT_ROLES.flatMap((role) => [
      { role, tool: 'read_treasury_balance', args: {}, rationale: `${role} one` },
      { role, tool: 'scan_token_trades', args: { hours: AGENT_ROLES.indexOf(role) + 1 }, rationale: `${role} two` },
    ]);
    const synthesis = answer({ phase: 'synthesis', context: ctx, brief: '', proposals });
    const decision = JSON.parse(answer({ phase: 'extraction', context: ctx, synthesis, tools: ENGINE_TOOLS }));
    expect(decision.actions).toHaveLength(MAX_DECISION_ACTIONS);
    expect(new Set(decision.actions.map((a: { role: string }) => a.role)).size).toBe(5);
    expect(synthesis).toMatch(/Deferred: 9 other proposals/);
  });

  it('says so when no role proposed anything', () => {
    const synthesis = answer({ phase: 'synthesis', context: CONTEXTS.bonding, brief: '', proposals: [] });
    expect(synthesis).toMatch(/None this cycle/);
    const decision = JSON.parse(
      answer({ phase: 'extraction', context: CONTEXTS.bonding, synthesis, tools: ENGINE_TOOLS, repairOf: '{' }),
    );
    expect(decision.actions).toEqual([]);
    expect(decision.directive).toMatch(/^Raise the platform score from 42.5/);
  });
});
