// The decision engine over HTTP, on anvil and a real database: rounds run through all seven phases with the
// built-in model and with an OpenAI-compatible server on loopback (budgets, malformed answers), their hashes
// anchored and verified on-chain in every outcome class, rounds that never overlap, stale rounds failed, due
// companies scheduled, and a chain outage during anchoring repaired later.

import { DecisionAnchorAbi, ValidationRegistryAbi } from '@ai-economy/shared/abis';
import { canonicalJson } from '@ai-economy/shared/canonical-json';
import { decisionHash } from '@ai-economy/shared/decision-hash';
import { eq } from 'drizzle-orm';
import { type Hex, keccak256, toBytes } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devAccount } from '../../src/chain/client.ts';
import { companyKey } from '../../src/chain/contracts/launcher.ts';
import { validationRequestHash } from '../../src/chain/contracts/validation.ts';
import { agents } from '../../src/db/schema/agents.ts';
import { companies } from '../../src/db/schema/companies.ts';
import { decisionBudgets, decisionRounds } from '../../src/db/schema/decisions.ts';
import { platformEvents } from '../../src/db/schema/events.ts';
import { anchorPendingRounds } from '../../src/domain/engine/anchoring.ts';
import { startRound } from '../../src/domain/engine/pipeline.ts';
import { dueCompanies, failStaleRounds, runDueRounds } from '../../src/domain/engine/runner.ts';
import { startTestApp, type TestApp, useTestApp } from '../helpers/app.ts';
import { companyBody, mintCard, signed, staffedCompany as staffed } from '../helpers/companies.ts';
import { type FakeLlm, type FakeLlmRequest, llmReply, startFakeLlm, systemText } from '../helpers/fake-llm.ts';
import { runCommonRouteTests } from '../helpers/security.ts';

// Rounds here run back to back: the manual-round cooldown has its own test (test/attacks/platform-gas.test.ts).
const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0' } });
let fake: FakeLlm;
let remote: TestApp;

/** A staffed company of dev account `account`: its id. */
const staffedCompany = async (account: number, name: string, extra: Record<string, unknown> = {}) =>
  (await staffed(t, account, { name, ...extra })).id;

const run = (id: string, signer: number, app = t.app) =>
  signed(app, signer, 'POST', `/api/companies/${id}/decisions/run`);
const decisions = (id: string) => t.app.inject({ method: 'GET', url: `/api/companies/${id}/decisions` });
const verify = (roundId: string) => t.app.inject({ method: 'GET', url: `/api/decisions/${roundId}/verify` });

let builtinCo: string;

beforeAll(async () => {
  builtinCo = await staffedCompany(1, 'Engine Co', { treasuryAddress: devAccount(1).address });
  fake = await startFakeLlm();
  remote = await startTestApp({
    database: t.database,
    chain: t.chain,
    env: {
      LLM_BASE_URL: fake.url,
      LLM_API_KEY: 'sk-test-secret',
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '3000',
      MANUAL_ROUND_COOLDOWN_S: '0',
    },
  });
});

afterAll(async () => {
  await remote?.close();
  await fake?.close();
});

describe('POST /api/companies/{id}/decisions/run with the built-in model', () => {
  let round: any;

  it('runs the seven phases, records the decision and its hash, anchors it and announces it', async () => {
    const res = await run(builtinCo, 1);
    expect(res.statusCode).toBe(201);
    round = res.json().data;
    expect(round).toMatchObject({ cycle: 1, status: 'COMPLETE', trigger: 'MANUAL' });
    expect(round.phases.map((p: { phase: string }) => p.phase)).toEqual([
      'context',
      'brief',
      'scrape',
      'roles',
      'synthesis',
      'extraction',
      'execution',
    ]);
    for (const p of round.phases) expect(p.durationMs).toBeGreaterThanOrEqual(0);
    // No model endpoint is configured: the built-in model answered every call, so no configured model is named as
    // having answered and no tokens were used; the choice of the BALANCED preset is kept apart.
    const asked = round.phases.filter((p: { calls: number }) => p.calls > 0);
    expect(asked.map((p: { phase: string }) => p.phase)).toEqual([
      'brief',
      'scrape',
      'roles',
      'synthesis',
      'extraction',
    ]);
    for (const p of asked) {
      expect(p.models, p.phase).toEqual(['builtin']);
      expect(p.tokens, p.phase).toBe(0);
      expect(p.configuredModels.length, p.phase).toBeGreaterThan(0);
      expect(
        p.configuredModels.every((m: string) => m.includes('/')),
        p.phase,
      ).toBe(true);
    }
    expect(round.llmTokensUsed).toBe(0);
    expect(round.ceoDecision.directive.length).toBeGreaterThan(0);
    expect(round.ceoDecision.actions.length).toBeGreaterThan(0);
    expect(round.actionsExecuted.length).toBeGreaterThan(0);
    expect(round.anchoredTxHash).toMatch(/^0x[0-9a-f]{64}$/);

    // The hash is keccak256 of the canonical JSON of the recorded decision: anyone can recompute it.
    const [row] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
    const recomputed = keccak256(
      toBytes(canonicalJson({ companyId: builtinCo, cycle: 1, directive: row!.directive, actions: row!.actions })),
    );
    expect(round.decisionHash).toBe(recomputed);

    const [event] = await t.database.db.select().from(platformEvents).where(eq(platformEvents.type, 'decision'));
    expect(event!.companyId).toBe(builtinCo);
    expect(event!.data).toEqual({
      roundId: round.id,
      cycle: 1,
      directive: round.ceoDecision.directive,
      actionsCount: row!.actions!.length,
      decisionHash: round.decisionHash,
    });

    const team = await t.database.db.select().from(agents).where(eq(agents.companyId, builtinCo));
    for (const agent of team) {
      expect(agent.decisionsCount).toBe(1);
      expect(agent.llmCallsTotal).toBe(1);
      expect(agent.lastActiveAt).not.toBeNull();
    }
  });

  it('lists the rounds most recent first with the latest budget of every agent', async () => {
    expect((await run(builtinCo, 1)).json().data.cycle).toBe(2);
    const res = await decisions(builtinCo);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.company).toEqual({ id: builtinCo, name: 'Engine Co', category: 'AI_TOKENS' });
    expect(data.rounds.map((r: { cycle: number }) => r.cycle)).toEqual([2, 1]);
    expect(data.latestBudget.map((b: { role: string }) => b.role)).toEqual([
      'CFO',
      'CTO',
      'CMO',
      'COO',
      'CSO',
      'CISO',
      'CRO',
    ]);
    const rows = await t.database.db
      .select()
      .from(decisionBudgets)
      .where(eq(decisionBudgets.roundId, data.rounds[0].id));
    for (const b of data.latestBudget) {
      expect(b.allocatedBudget).toBe(0.1); // BALANCED
      expect(b.llmCalls).toBe(1);
      expect(b.spentBudget).toBeLessThanOrEqual(b.allocatedBudget);
      // Spent is the model call, the reads and the actions run (0.001 USD each), to the micro-dollar.
      const row = rows.find((r) => r.agentId === b.agentId)!;
      expect(row.spent).toBe(row.llmCost + row.scrapeCost + row.chainReadCost + row.toolCalls * 1_000);
    }
    const slug = (await t.database.db.select().from(companies).where(eq(companies.id, builtinCo)))[0]!.slug;
    expect((await decisions(slug)).json().data.company.id).toBe(builtinCo);
    expect((await decisions('nobody')).statusCode).toBe(404);
  });

  it('verifies an anchored round through the anchor contract', async () => {
    const res = await verify(round.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      decisionId: round.id,
      decisionHash: round.decisionHash,
      anchoredTxHash: round.anchoredTxHash,
      onChainVerified: true,
      verificationMethod: 'decision_anchor',
    });
    expect(res.json().data.anchoredAt).toBeTypeOf('string');
    // The local chain has no block explorer: no link rather than one that goes nowhere.
    expect(res.json().data.explorerUrl).toBeNull();
    // Anchored in a batch by Merkle root: the answer carries the proof, and anyone checks it with the contract.
    const { merkle } = res.json().data;
    expect(merkle.companyKey).toBe(companyKey(builtinCo));
    expect(merkle.root).toMatch(/^0x[0-9a-f]{64}$/);
    const checked = await t.chain.chain.publicClient.readContract({
      address: t.chain.chain.contracts.decisionAnchor!,
      abi: DecisionAnchorAbi,
      functionName: 'anchoredAt',
      args: [merkle.companyKey, round.decisionHash, merkle.proof],
    });
    expect(new Date(Number(checked) * 1000).toISOString()).toBe(res.json().data.anchoredAt);
    expect((await verify('nope')).statusCode).toBe(404);
  });

  it('links the anchoring transaction on the block explorer as an absolute URL when the chain has one', async () => {
    const explorer = await startTestApp({
      database: t.database,
      chain: { ...t.chain, chain: { ...t.chain.chain, explorerUrl: 'https://explorer.example' } },
    });
    try {
      const res = await explorer.app.inject({ method: 'GET', url: `/api/decisions/${round.id}/verify` });
      expect(res.json().data.explorerUrl).toBe(`https://explorer.example/tx/${round.anchoredTxHash}`);
      const chain = (await explorer.app.inject({ method: 'GET', url: '/api/chain' })).json().data;
      expect(chain.explorerUrl).toBe('https://explorer.example');
    } finally {
      await explorer.close();
    }
  });

  it('answers 403 to another signer, 404 for no company, 400 without active agents', async () => {
    expect((await run(builtinCo, 2)).statusCode).toBe(403);
    expect((await run('nobody', 1)).statusCode).toBe(404);
    await mintCard(t.chain, 3);
    const bare = (await signed(t.app, 3, 'POST', '/api/companies', companyBody())).json().data.id;
    const res = await run(bare, 3);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('follows a human directive verbatim and leaves disabled tools alone', async () => {
    const id = await staffedCompany(4, 'Directed Co');
    await t.database.db
      .update(companies)
      .set({
        autonomyLevel: 'HUMAN_DIRECTED',
        ceoPrompt: 'Focus on community growth this week.',
        toolkitConfig: { disabledTools: ['publish_update'] },
      })
      .where(eq(companies.id, id));
    const data = (await run(id, 4)).json().data;
    expect(data.status).toBe('COMPLETE');
    expect(data.ceoDecision.directive).toBe('Focus on community growth this week.');
    for (const line of [...data.ceoDecision.actions, ...data.actionsExecuted])
      expect(line).not.toContain('publish_update');
  });

  runCommonRouteTests(
    () => ({ app: t.app, now: Date.now }),
    () => ({ method: 'POST', url: `/api/companies/${builtinCo}/decisions/run` }),
  );
});

describe('rounds never overlap, and a stopped round is failed', () => {
  it('answers 409 while a round of the company is RUNNING, and runs again once it is failed as stale', async () => {
    const stuck = await startRound({ ...t.container }, builtinCo, 'SCHEDULED');
    const res = await run(builtinCo, 1);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');

    // Its process "stopped": no heartbeat for longer than the limit.
    await t.database.db
      .update(decisionRounds)
      .set({ heartbeatAt: new Date(Date.now() - 20 * 60_000), phase: 'roles' })
      .where(eq(decisionRounds.id, stuck.id));
    expect(await failStaleRounds(t.container, 600_000)).toBe(1);
    const [failed] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, stuck.id));
    expect(failed).toMatchObject({ status: 'FAILED', phase: 'roles' });
    expect(failed!.error).toMatch(/interrupted/);
    expect((await verify(stuck.id)).json().data).toMatchObject({
      verificationMethod: 'not_anchored',
      decisionHash: null,
      onChainVerified: false,
    });
    expect((await run(builtinCo, 1)).statusCode).toBe(201);
  });

  it('two runs at once: one round, the other 409', async () => {
    const statuses = (await Promise.all([run(builtinCo, 1), run(builtinCo, 1)])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
  });
});

describe('with an OpenAI-compatible model server', () => {
  let id: string;

  /** Answers each phase by what its system prompt asks; `overrides` replaces some phases' answers. */
  function script(
    overrides: Partial<
      Record<'brief' | 'scrape' | 'role' | 'synthesis' | 'extraction', (r: FakeLlmRequest) => any>
    > = {},
  ) {
    fake.setDefault((r) => {
      const prompt = systemText(r);
      const phase = prompt.includes('chief of staff')
        ? 'brief'
        : prompt.includes('market readings')
          ? 'scrape'
          : prompt.startsWith('Extract')
            ? 'extraction'
            : prompt.includes('CEO')
              ? 'synthesis'
              : 'role';
      const override = overrides[phase];
      if (override) return override(r);
      if (phase === 'role') {
        return llmReply.ok(
          JSON.stringify({
            proposals: [
              { tool: 'read_token_price', args: {}, rationale: 'know the price' },
              { tool: 'publish_update', args: { message: 'We ship.' }, rationale: 'tell the market' },
            ],
          }),
        );
      }
      if (phase === 'extraction') {
        return llmReply.ok(
          JSON.stringify({
            directive: 'Ship and tell the market.',
            actions: [{ role: 'CMO', tool: 'publish_update', args: { message: 'We ship.' }, rationale: 'reach' }],
          }),
        );
      }
      return llmReply.ok(`${phase} answer`);
    });
  }

  beforeAll(async () => {
    id = await staffedCompany(5, 'Remote Co');
  });

  it('sends every phase to the configured model with its key, and accounts tokens and cost', async () => {
    fake.reset();
    script();
    const res = await run(id, 5, remote.app);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.status).toBe('COMPLETE');
    expect(data.ceoDecision.directive).toBe('Ship and tell the market.');
    expect(data.actionsExecuted).toEqual(['CMO publish_update: published: We ship.']);
    // brief + scrape + 7 roles + synthesis + extraction, each 15 tokens by default.
    expect(fake.requests).toHaveLength(11);
    expect(data.llmTokensUsed).toBe(11 * 15);
    for (const r of fake.requests) expect(r.headers.authorization).toBe('Bearer sk-test-secret');
    const models = new Set(fake.requests.map((r) => r.body.model));
    expect([...models].every((m) => typeof m === 'string' && m.includes('/'))).toBe(true);
    // Each phase names the model that answered it, which here is the one configured.
    for (const p of data.phases.filter((x: { calls: number }) => x.calls > 0)) {
      expect(p.models, p.phase).toEqual(p.configuredModels);
      expect(
        p.models.every((m: string) => m.includes('/')),
        p.phase,
      ).toBe(true);
      expect(p.tokens, p.phase).toBeGreaterThan(0);
    }
    expect(JSON.stringify(data)).not.toContain('sk-test-secret');
  });

  it('stores a model answer holding NUL and unpaired surrogates, made storable, and completes the round', async () => {
    fake.reset();
    // JSON escapes the model may write: a NUL and a lone surrogate decode into text PostgreSQL refuses.
    const raw =
      '{"directive":"Ship\\u0000 and \\ud800 tell.","actions":[{"role":"CMO","tool":"publish_update","args":{"message":"We\\u0000 ship."},"rationale":"reach\\udc00"}]}';
    script({ extraction: () => llmReply.ok(raw) });
    const res = await run(id, 5, remote.app);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.status).toBe('COMPLETE');
    expect(data.ceoDecision.directive).toBe('Ship and \ufffd tell.');
    expect(data.actionsExecuted).toEqual(['CMO publish_update: published: We ship.']);
  });

  it('refuses tools an agent cannot afford, and records why', async () => {
    fake.reset();
    // Each role call is billed (the gateway's usage.cost) at more than the round budget of 0.10 USD.
    script({
      role: () =>
        llmReply.billed(
          JSON.stringify({
            proposals: [
              { tool: 'read_token_price', args: {}, rationale: 'price' },
              { tool: 'publish_update', args: { message: 'x' }, rationale: 'say' },
            ],
          }),
          0.2,
        ),
    });
    const data = (await run(id, 5, remote.app)).json().data;
    expect(data.status).toBe('COMPLETE');
    // The decided action was refused for the budget, and its line says so.
    expect(data.actionsExecuted).toEqual(['CMO publish_update: refused: over budget (0.1 USD this round)']);
    const budgets = await t.database.db.select().from(decisionBudgets).where(eq(decisionBudgets.roundId, data.id));
    expect(budgets).toHaveLength(7);
    for (const b of budgets) {
      expect(b.spent).toBeGreaterThan(b.allocated);
      expect(b.chainReads).toBe(0);
      // The price is a read of the CFO, the CTO and the CRO; the other roles are refused it as not theirs.
      expect(b.refused).toContainEqual({
        tool: 'read_token_price',
        reason: ['CFO', 'CTO', 'CRO'].includes(b.role) ? 'over budget' : `not one of the ${b.role}'s tools`,
      });
    }
    const cmo = budgets.find((b) => b.role === 'CMO')!;
    expect(cmo.refused).toContainEqual({ tool: 'publish_update', reason: 'over budget' });
  });

  it('repairs an invalid decision once, and fails the round at extraction when the repair is invalid too', async () => {
    fake.reset();
    let extractions = 0;
    script({
      extraction: () => {
        extractions++;
        return extractions === 1
          ? llmReply.ok('{"directive": "x", "actions": [{"role": "CMO", "tool": "launch_rocket"}]}')
          : llmReply.ok(JSON.stringify({ directive: 'Repaired.', actions: [] }));
      },
    });
    const repaired = (await run(id, 5, remote.app)).json().data;
    expect(repaired.status).toBe('COMPLETE');
    expect(repaired.ceoDecision.directive).toBe('Repaired.');
    expect(extractions).toBe(2);
    const repairRequest = fake.requests.at(-1)!;
    expect(repairRequest.body.messages.at(-1).content).toMatch(/invalid/);

    fake.reset();
    // Valid JSON twice, but naming a tool that does not exist.
    script({
      extraction: () =>
        llmReply.ok(
          JSON.stringify({
            directive: 'x',
            actions: [{ role: 'CMO', tool: 'launch_rocket', args: {}, rationale: '' }],
          }),
        ),
    });
    const res = await run(id, 5, remote.app);
    expect(res.statusCode).toBe(201);
    const failed = res.json().data;
    expect(failed).toMatchObject({ status: 'FAILED', failedPhase: 'extraction' });
    expect(failed.error).toMatch(/invalid after one repair/);
    expect((await verify(failed.id)).json().data.verificationMethod).toBe('not_anchored');

    // An answer that is not JSON at all fails in the model layer (malformed), in the same phase.
    fake.reset();
    script({ extraction: () => llmReply.ok('not json at all') });
    expect((await run(id, 5, remote.app)).json().data).toMatchObject({ status: 'FAILED', failedPhase: 'extraction' });
  });

  it('fails the round in the phase whose model call failed, keeping the error', async () => {
    fake.reset();
    script({ brief: () => llmReply.status(500) });
    const failed = (await run(id, 5, remote.app)).json().data;
    expect(failed).toMatchObject({ status: 'FAILED', failedPhase: 'brief' });
    expect(failed.error).not.toContain('sk-test-secret');
    // Not RUNNING for ever: the next round starts.
    fake.reset();
    script();
    expect((await run(id, 5, remote.app)).json().data.status).toBe('COMPLETE');
  });
});

describe('verification outcomes', () => {
  it('db_only before anchoring, decision_anchor after the repair job, not_verified when the chain lacks it', async () => {
    const id = await staffedCompany(6, 'Offline Co');
    // The chain goes away while the round anchors: the round completes, hashed but not anchored.
    const offline = await startTestApp({
      database: t.database,
      chain: {
        ...t.chain,
        chain: { ...t.chain.chain, contracts: { ...t.chain.chain.contracts, decisionAnchor: undefined } },
      },
    });
    const data = (await run(id, 6, offline.app)).json().data;
    await offline.close();
    expect(data.status).toBe('COMPLETE');
    expect(data.anchoredTxHash).toBeNull();
    expect((await verify(data.id)).json().data).toMatchObject({
      verificationMethod: 'db_only',
      onChainVerified: false,
      anchoredTxHash: null,
      decisionHash: data.decisionHash,
    });

    expect(await anchorPendingRounds(t.container)).toBeGreaterThanOrEqual(1);
    expect((await verify(data.id)).json().data.verificationMethod).toBe('decision_anchor');

    // A recorded anchoring whose hash the chain does not hold cannot be verified.
    const bogus = keccak256(toBytes('never anchored'));
    await t.database.db.update(decisionRounds).set({ decisionHash: bogus }).where(eq(decisionRounds.id, data.id));
    const unverified = (await verify(data.id)).json().data;
    expect(unverified).toMatchObject({
      verificationMethod: 'not_verified',
      onChainVerified: false,
      reason: 'the anchoring transaction is recorded but the chain holds no anchor for this hash',
    });
    expect(unverified.anchoredAt).toEqual(expect.any(String));
  });

  it('erc8004_validation when the hash is a validated request of the trust registry', async () => {
    const [row] = await t.database.db
      .select()
      .from(decisionRounds)
      .where(eq(decisionRounds.companyId, builtinCo))
      .orderBy(decisionRounds.cycle)
      .limit(1);
    const hash = keccak256(toBytes(`legacy ${row!.id}`)) as Hex;
    await t.database.db
      .update(decisionRounds)
      .set({ decisionHash: hash, anchorTxHash: null })
      .where(eq(decisionRounds.id, row!.id));
    // Legacy path: the agent's identity owner (the platform) asks the platform's validator key, which answers
    // (a stranger's validation proves nothing: test/attacks/spoofed-verification.test.ts).
    const [agent] = await t.database.db.select().from(agents).where(eq(agents.companyId, builtinCo)).limit(1);
    const registry = t.chain.chain.contracts.validationRegistry!;
    const client = t.chain.chain.publicClient;
    const validator = t.chain.wallet(0);
    await client.waitForTransactionReceipt({
      hash: await t.chain.wallet(0).writeContract({
        address: registry,
        abi: ValidationRegistryAbi,
        functionName: 'validationRequest',
        args: [validator.account.address, BigInt(agent!.erc8004TokenId!), 'ipfs://decision', hash],
      }),
    });
    await client.waitForTransactionReceipt({
      hash: await validator.writeContract({
        address: registry,
        abi: ValidationRegistryAbi,
        functionName: 'validationResponse',
        args: [
          validationRequestHash(validator.account.address, hash),
          100,
          'ipfs://ok',
          keccak256(toBytes('ok')),
          keccak256(toBytes('decision')),
        ],
      }),
    });
    expect((await verify(row!.id)).json().data).toMatchObject({
      verificationMethod: 'erc8004_validation',
      onChainVerified: true,
    });
  });
});

describe('scheduling', () => {
  it('runs a scheduled round of each company whose slot has come, then holds it until its next slot', async () => {
    const before = await t.database.db.select().from(decisionRounds);
    const fresh = await staffedCompany(7, 'Scheduled Co');
    // A company new to the schedule is due at once.
    expect(await dueCompanies(t.container, 100)).toContain(fresh);
    const ran = await runDueRounds({ ...t.container }, { intervalS: 3600, concurrency: 2, limit: 100 });
    expect(ran).toBeGreaterThanOrEqual(1);
    const after = await t.database.db.select().from(decisionRounds);
    const scheduled = after.filter((r) => !before.some((b) => b.id === r.id));
    expect(scheduled.map((r) => r.companyId)).toContain(fresh);
    expect(scheduled.every((r) => r.trigger === 'SCHEDULED' && r.scheduledFor !== null)).toBe(true);
    // None of them is due again before its next slot.
    const due = await dueCompanies(t.container, 100);
    for (const r of scheduled) expect(due).not.toContain(r.companyId);
    // The hash of a scheduled round is the same function of its decision.
    const mine = scheduled.find((r) => r.companyId === fresh)!;
    expect(mine.decisionHash).toBe(
      decisionHash({ companyId: fresh, cycle: mine.cycle, directive: mine.directive!, actions: mine.actions! }),
    );
  });
});
