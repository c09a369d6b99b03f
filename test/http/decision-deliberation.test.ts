// A decision round's deliberation over HTTP: the C-suite's proposals and the CEO's reasoning are stored with the round
// and read back by GET /api/decisions/{id}; a round recorded before they were kept says so.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { decisionRounds } from '../../src/db/schema/decisions.ts';
import { startRound } from '../../src/domain/engine/pipeline.ts';
import { pruneDecisionDetails } from '../../src/domain/engine/retention.ts';
import { markFailedBare, recordDeliberation } from '../../src/domain/engine/rounds.ts';
import { useTestApp } from '../helpers/app.ts';
import { signed, staffedCompany } from '../helpers/companies.ts';

const t = useTestApp({ env: { MANUAL_ROUND_COOLDOWN_S: '0', COMPANY_CUSTODY: 'none' } });

describe('GET /api/decisions/{id} deliberation', () => {
  it("shows the proposals and the CEO's reasoning the round stored", async () => {
    const company = await staffedCompany(t, 1, { name: 'Deliberation Co' });
    const run = await signed(t.app, 1, 'POST', `/api/companies/${company.id}/decisions/run`);
    expect(run.statusCode).toBe(201);
    const roundId = run.json().data.id as string;
    const [stored] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, roundId));
    expect(stored!.ceoReasoning).toBeTruthy();
    expect(stored!.proposals!.length).toBeGreaterThan(0);

    const res = await t.app.inject(`/api/decisions/${roundId}`);
    expect(res.statusCode).toBe(200);
    const { deliberation } = res.json().data;
    expect(deliberation.recorded).toBe(true);
    expect(deliberation.ceoReasoning).toBe(stored!.ceoReasoning);
    expect(deliberation.proposals).toHaveLength(stored!.proposals!.length);
    for (const [i, p] of deliberation.proposals.entries()) {
      const s = stored!.proposals![i]!;
      expect(p).toEqual({ role: s.role, tool: s.tool, args: s.args, rationale: s.rationale, result: s.result ?? null });
    }
    // The company list of rounds stays as it was: the deliberation is the one round's.
    const list = await t.app.inject(`/api/companies/${company.id}/decisions`);
    expect(list.json().data.rounds[0]).not.toHaveProperty('deliberation');
    expect(list.json().data.rounds[0]).not.toHaveProperty('ceoReasoning');

    // A round from before they were kept: recorded false, nothing made up.
    await t.database.db
      .update(decisionRounds)
      .set({ proposals: null, ceoReasoning: null })
      .where(eq(decisionRounds.id, roundId));
    const old = (await t.app.inject(`/api/decisions/${roundId}`)).json().data.deliberation;
    expect(old).toEqual({ recorded: false, pruned: false, proposals: [], ceoReasoning: null });
  }, 120_000);

  it('a pruned round keeps its decision but no longer its deliberation, and says so', async () => {
    const company = await staffedCompany(t, 2, { name: 'Pruned Deliberation Co' });
    const first = await signed(t.app, 2, 'POST', `/api/companies/${company.id}/decisions/run`);
    const second = await signed(t.app, 2, 'POST', `/api/companies/${company.id}/decisions/run`);
    expect(second.statusCode).toBe(201);
    const roundId = first.json().data.id as string;
    // Every finished round but the company's latest is past a cutoff in the future.
    await pruneDecisionDetails(t.database.db, new Date(Date.now() + 365 * 86_400_000));
    const [stored] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, roundId));
    expect(stored).toMatchObject({ proposals: null, ceoReasoning: null });
    expect(stored!.detailsPrunedAt).not.toBeNull();
    const res = (await t.app.inject(`/api/decisions/${roundId}`)).json().data;
    expect(res.deliberation).toEqual({ recorded: false, pruned: true, proposals: [], ceoReasoning: null });
    expect(res.round.ceoDecision.directive).toBeTruthy();
    // The latest round is left whole.
    const latest = (await t.app.inject(`/api/decisions/${second.json().data.id}`)).json().data.deliberation;
    expect(latest.recorded).toBe(true);
  }, 120_000);

  it("stores a model's deliberation without what no column can hold (a NUL), rather than failing the round", async () => {
    const company = await staffedCompany(t, 2, { name: 'Nul Reasoning Co' });
    const round = await startRound(t.container, company.id, 'MANUAL');
    await recordDeliberation(t.database.db, round.id, {
      proposals: [{ role: 'CFO', tool: 'buy_token', args: { token: 'A\u0000B' }, rationale: 'cheap\u0000now' }],
      ceoReasoning: 'Buy\u0000 it.',
    });
    const [stored] = await t.database.db.select().from(decisionRounds).where(eq(decisionRounds.id, round.id));
    expect(stored!.ceoReasoning).toBe('Buy it.');
    expect(stored!.proposals).toEqual([
      { role: 'CFO', tool: 'buy_token', args: { token: 'AB' }, rationale: 'cheapnow' },
    ]);
    await markFailedBare(t.database.db, round.id, 'test over', new Date());
  }, 120_000);
});
