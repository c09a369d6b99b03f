// The round records' retention (the prune-decision-details job): a finished round older than
// DECISION_DETAIL_RETENTION_DAYS loses its phases' notes (refusals kept), configured models and agents' budget rows,
// and keeps all the routes show and verify: a pruned round is still listed and shown, its decision still hashes to
// its recorded hash in the form the browser recomputes, and its anchoring still verifies on-chain. The bound: a round
// created at the cutoff is kept whole, one a millisecond before it is pruned; a company's latest round is kept whole.

import { decisionHash } from '@ai-economy/shared/decision-hash';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { decisionBudgets, decisionRounds, type PhaseRecord } from '../../../src/db/schema/decisions.ts';
import { anchorPendingRounds } from '../../../src/domain/engine/anchoring.ts';
import { economyNow, runRound, startRound } from '../../../src/domain/engine/pipeline.ts';
import { detailCutoff, pruneDecisionDetails } from '../../../src/domain/engine/retention.ts';
import { jobs, runJobOnce } from '../../../src/jobs/scheduler.ts';
import { useTestApp } from '../../helpers/app.ts';
import { staffedCompany } from '../../helpers/companies.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0', DECISION_DETAIL_RETENTION_DAYS: '3' } });
const db = () => t.database.db;
const DAY_MS = 86_400_000;
const NOTES = ['refused CFO buy_token: over the daily limit', 'CMO: the model call failed (timeout)'];

let companyId: string;
const ids: string[] = [];

const roundRow = async (id: string) => (await db().select().from(decisionRounds).where(eq(decisionRounds.id, id)))[0]!;
const budgetCount = async (id: string) =>
  (await db().select().from(decisionBudgets).where(eq(decisionBudgets.roundId, id))).length;
/** Dates a round at `at` and gives its extraction phase a refusal and another note, its phases configured models. */
async function age(id: string, at: Date) {
  const row = await roundRow(id);
  const phases: PhaseRecord[] = row.phases.map((p) =>
    p.phase === 'extraction' ? { ...p, notes: NOTES, configuredModels: ['openai/gpt-5'] } : p,
  );
  await db().update(decisionRounds).set({ createdAt: at, phases }).where(eq(decisionRounds.id, id));
}
const view = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/decisions/${id}` })).json().data;

beforeAll(async () => {
  companyId = (await staffedCompany(t, 1, { name: 'Retention Co' })).id;
  for (let i = 0; i < 4; i++) {
    const round = await runRound(t.container, await startRound(t.container, companyId, 'MANUAL'));
    expect(round.status, round.error ?? '').toBe('COMPLETE');
    ids.push(round.id);
  }
  await anchorPendingRounds(t.container);
});

describe('pruning finished rounds past the retention', () => {
  let cutoff: Date;

  it('prunes a round a millisecond before the cutoff and keeps one at the cutoff, the latest kept whole', async () => {
    cutoff = new Date(Date.UTC(2030, 0, 10));
    const [outside, inside, older, latest] = ids as [string, string, string, string];
    await age(outside, new Date(cutoff.getTime() - 1));
    await age(inside, cutoff);
    await age(older, new Date(cutoff.getTime() - 30 * DAY_MS));
    await age(latest, new Date(cutoff.getTime() - 30 * DAY_MS));
    const before = await Promise.all(ids.map(roundRow));

    // One round a statement, one statement: the oldest prunable round first (the latest round is not prunable).
    expect(await pruneDecisionDetails(db(), cutoff, { batch: 1, maxBatches: 1 })).toEqual({ rounds: 1, budgets: 7 });
    expect((await roundRow(older)).detailsPrunedAt).not.toBeNull();
    expect((await roundRow(outside)).detailsPrunedAt).toBeNull();
    expect(await pruneDecisionDetails(db(), cutoff, { batch: 1 })).toEqual({ rounds: 1, budgets: 7 });
    // Nothing left to prune: a second run does nothing.
    expect(await pruneDecisionDetails(db(), cutoff)).toEqual({ rounds: 0, budgets: 0 });

    for (const id of [outside, older]) {
      const row = await roundRow(id);
      const was = before[ids.indexOf(id)]!;
      expect(row.detailsPrunedAt).toBeInstanceOf(Date);
      expect(await budgetCount(id)).toBe(0);
      // The deliberation is model text: it goes, and the page says it is not recorded.
      expect(was.ceoReasoning).not.toBeNull();
      expect([row.proposals, row.ceoReasoning]).toEqual([null, null]);
      expect((await view(id)).deliberation).toMatchObject({ recorded: false, proposals: [], ceoReasoning: null });
      const extraction = row.phases.find((p) => p.phase === 'extraction')!;
      // The refusal is an outcome the next rounds are told of: kept; the other note and the configured models go.
      expect(extraction.notes).toEqual([NOTES[0]]);
      expect(extraction.configuredModels).toBeUndefined();
      // Each phase's figures, the decision, its hash, outcomes and costs are as they were.
      expect(row.phases.map(({ notes: _n, configuredModels: _c, ...p }) => p)).toEqual(
        was.phases.map(({ notes: _n, configuredModels: _c, ...p }) => p),
      );
      for (const key of [
        'directive',
        'actions',
        'actionsExecuted',
        'decisionHash',
        'anchorTxHash',
        'anchorRoot',
        'anchorProof',
        'llmCost',
        'llmTokensUsed',
        'status',
      ] as const) {
        expect(row[key], key).toEqual(was[key]);
      }
    }
    for (const id of [inside, latest]) {
      const row = await roundRow(id);
      expect(row.detailsPrunedAt).toBeNull();
      expect(await budgetCount(id)).toBe(7);
      expect(row.ceoReasoning).not.toBeNull();
      expect(row.phases.find((p) => p.phase === 'extraction')!.notes).toEqual(NOTES);
    }
  });

  it('still lists, shows and verifies a pruned round: its hash recomputes from what the route shows', async () => {
    const pruned = ids[0]!;
    const listed = (await t.app.inject({ method: 'GET', url: `/api/companies/${companyId}/decisions` })).json().data;
    expect(listed.rounds.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(ids));
    expect(listed.latestBudget).toHaveLength(7);

    const shown = await view(pruned);
    expect(shown.round.status).toBe('COMPLETE');
    expect(shown.round.phases.map((p: { phase: string }) => p.phase)).toContain('extraction');
    // What the web app hashes in the browser: the company, cycle, directive and actions the page shows.
    const recomputed = decisionHash({
      companyId: shown.round.companyId,
      cycle: shown.round.cycle,
      directive: shown.round.ceoDecision.directive,
      actions: shown.round.actions.map((a: { role: string; tool: string; args: unknown; rationale: string }) => ({
        role: a.role,
        tool: a.tool,
        args: a.args,
        rationale: a.rationale,
      })),
    });
    expect(recomputed).toBe(shown.round.decisionHash);
    const verified = (await t.app.inject({ method: 'GET', url: `/api/decisions/${pruned}/verify` })).json().data;
    expect(verified).toMatchObject({ decisionHash: recomputed, onChainVerified: true });
  });

  it('runs as the scheduled job with the configured days, by the chain clock', async () => {
    // A fresh round past the retention by a minute, and the round before the latest within it by a minute.
    const now = await economyNow(t.container);
    const configured = detailCutoff(now, 3);
    expect(configured.getTime()).toBe(now.getTime() - 3 * DAY_MS);
    const fresh = await runRound(t.container, await startRound(t.container, companyId, 'MANUAL'));
    ids.push(fresh.id);
    await age(ids[1]!, new Date(configured.getTime() - 60_000)); // was inside the first cutoff
    await age(ids[3]!, new Date(configured.getTime() + 60_000)); // no longer the latest, but within the retention
    const job = jobs.find((j) => j.name === 'prune-decision-details')!;
    expect(await runJobOnce(job, t.container)).toBe(true);
    expect((await roundRow(ids[1]!)).detailsPrunedAt).not.toBeNull();
    expect(await budgetCount(ids[1]!)).toBe(0);
    expect((await roundRow(ids[3]!)).detailsPrunedAt).toBeNull();
    expect(await budgetCount(ids[3]!)).toBe(7);
    expect((await roundRow(fresh.id)).detailsPrunedAt).toBeNull();
  });

  it('two processes pruning at once share the rounds: each pruned once, its budget rows deleted once', async () => {
    const other = (await staffedCompany(t, 2, { name: 'Retention Two' })).id;
    const rounds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const round = await runRound(t.container, await startRound(t.container, other, 'MANUAL'));
      rounds.push(round.id);
    }
    // Dated before every other round of the file, so only these four are prunable at this cutoff.
    const cutoff = new Date(Date.UTC(2001, 0, 1));
    for (const id of rounds) await age(id, new Date(cutoff.getTime() - DAY_MS));
    // Two transactions, as two scheduler processes would run the job (PGlite serves one process: there they queue).
    const [a, b] = await Promise.all(
      [0, 1].map(() => db().transaction((tx) => pruneDecisionDetails(tx, cutoff, { batch: 1, maxBatches: 10 }))),
    );
    expect(a!.rounds + b!.rounds).toBe(4);
    expect(a!.budgets + b!.budgets).toBe(28);
    for (const id of rounds.slice(0, 4)) expect((await roundRow(id)).detailsPrunedAt).not.toBeNull();
    expect((await roundRow(rounds[4]!)).detailsPrunedAt).toBeNull();
    expect(await budgetCount(rounds[4]!)).toBe(7);
  });
});
