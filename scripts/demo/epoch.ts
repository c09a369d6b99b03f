import { loadCompany } from './companies.ts';
import { type Ctx, cron, DemoError, describe, rpc } from './context.ts';
import { stepClosingDay } from './days.ts';
import { planEpoch, snapshotSeconds } from './epoch-plan.ts';
import { formatUnitsShort } from './units.ts';

export async function stepDecisions(ctx: Ctx) {
  let ran = 0;
  let failed = 0;
  for (const c of ctx.plan) {
    const company = await loadCompany(ctx, c.slug);
    if (!company.agents.some((a: any) => a.status === 'ACTIVE')) continue;
    const { rounds } = await ctx.api.data('GET', `/api/companies/${company.id}/decisions`);
    // The list holds the last 10 rounds: a company with a full list has been through the demo's days already.
    if (rounds.length >= 10 || rounds.some((r: any) => r.trigger === 'MANUAL' && r.status === 'COMPLETE')) continue;
    ctx.progress.step(`decisions: ${c.slug} runs a round`);
    const res = await ctx.api.call('POST', `/api/companies/${company.id}/decisions/run`, {
      signer: ctx.accounts[c.account]!,
    });
    if (res.status === 409 || res.status === 429) {
      ctx.progress.note(
        `${c.slug}: ${res.status === 409 ? 'a scheduled round is running right now' : 'a manual round ran moments ago'}; skipped`,
      );
      continue;
    }
    if (res.status !== 201) throw new DemoError(`POST /api/companies/${company.id}/decisions/run: ${describe(res)}`);
    if (res.body.data.status === 'COMPLETE') ran++;
    else {
      failed++;
      ctx.progress.note(`${c.slug}: round FAILED in ${res.body.data.failedPhase}: ${res.body.data.error}`);
    }
  }
  ctx.summary.push(`decision rounds run now: ${ran}${failed ? ` (${failed} failed)` : ''}`);
}

/**
 * The score snapshot that holds the demo's activity. A snapshot covers the chain's day before it, and the demo's
 * trades and treasuries are of the chain's current day: while no snapshot scores any demo company's treasury or
 * volume and the scheduler secret is known, the chain's clock moves just past its next midnight (UTC) and
 * POST /api/cron/score-snapshot takes that day's, once the service's indexer has applied it.
 */
export async function stepSnapshot(ctx: Ctx): Promise<number | undefined> {
  ctx.progress.step('scores: looking for the latest snapshot');
  const slugs = new Set(ctx.plan.map((c) => c.slug));
  const ranked = async () => {
    const list = await ctx.api.data('GET', '/api/fortune-list?limit=100');
    return { list, ours: (list.companies as any[]).filter((e) => slugs.has(e.company.slug)) };
  };
  let { list, ours } = await ranked();
  const scored = ours.some((e) => e.score.treasuryRaw > 0 || e.score.volumeRaw > 0);
  if (!scored && ctx.options.secret) {
    const now = Number((await ctx.client.getBlock({ blockTag: 'pending' })).timestamp);
    const midnight = (Math.floor(now / 86_400) + 1) * 86_400;
    ctx.progress.step("scores: moving the chain's clock past its midnight");
    await rpc(ctx, 'evm_setNextBlockTimestamp', [midnight + 60]);
    await rpc(ctx, 'evm_mine', []);
    ctx.summary.push(`chain clock moved ${midnight + 60 - now} s ahead, past its midnight: the demo's day is scored`);
    ctx.progress.step('scores: POST /api/cron/score-snapshot');
    let d = await cron(ctx, '/api/cron/score-snapshot', ctx.options.secret);
    // The service's indexer applies the new block within a poll or two; the day's last block must also be finalized
    // (CHAIN_FINALITY_DEPTH blocks under the head, 12 by default), and the local chain mines only on demand: one
    // empty block a wait.
    for (let i = 0; i < 60 && d.status === 'waiting'; i++) {
      await rpc(ctx, 'evm_mine', []);
      await new Promise((resolve) => setTimeout(resolve, 500));
      d = await cron(ctx, '/api/cron/score-snapshot', ctx.options.secret);
    }
    if (d.status === 'taken') ctx.summary.push(`score snapshot ${d.date} taken now: ${d.companies} companies scored`);
    ({ list, ours } = await ranked());
  }
  if (ours.length === 0) {
    const message = ctx.options.secret
      ? `no score snapshot holds the demo companies yet: the service's indexer did not apply the chain's day in time; run npm run demo again to take it, finalize an epoch and claim.`
      : `no score snapshot holds the demo companies yet, and no scheduler secret is known to take one now (--secret, CRON_SECRET, or the development ./data/cron-secret of a local npm start). The service's job takes each day's after the chain's midnight (00:00 UTC); then run npm run demo again to finalize an epoch and claim.`;
    ctx.notes.push(message);
    ctx.summary.push('score snapshot: none with the demo companies yet (see the notes)');
    return undefined;
  }
  const date = String(list.epoch).slice(0, 10);
  const leader = ours.reduce((a: any, b: any) => (b.rank < a.rank ? b : a));
  ctx.summary.push(
    `score snapshot ${date}: ${ours.length} demo companies ranked; best ${leader.company.slug} #${leader.rank} (${leader.score.overall})`,
  );
  if (ours.length < ctx.plan.length) {
    ctx.notes.push(
      `the snapshot of ${date} was taken before ${ctx.plan.length - ours.length} demo companies existed; a date is taken once, so they join the next day's`,
    );
  }
  return snapshotSeconds(list.epoch);
}

export async function claimables(ctx: Ctx): Promise<Map<string, any[]>> {
  const out = new Map<string, any[]>();
  for (const c of ctx.plan) {
    const company = ctx.companies.get(c.slug);
    const data = await ctx.api.data('GET', `/api/epochs/claimable/${company.id}`);
    out.set(c.slug, data.claimable ?? []);
  }
  return out;
}

export async function distribute(ctx: Ctx): Promise<boolean> {
  if (!ctx.options.secret) {
    ctx.notes.push(
      "no CRON_SECRET or ADMIN_SECRET known, so POST /api/cron/epoch-distribute was not called: the scheduler's epoch-distribute job finalizes the ended epoch at 5 minutes past the hour (and at start); run npm run demo again afterwards to claim. Or pass --secret (the service's CRON_SECRET).",
    );
    return false;
  }
  ctx.progress.step('epochs: POST /api/cron/epoch-distribute');
  const d = await cron(ctx, '/api/cron/epoch-distribute', ctx.options.secret);
  ctx.summary.push(
    `epoch ${d.epoch}: ${d.status}${d.participantCount !== undefined ? `, ${d.participantCount} participants` : ''}${d.reason ? ` (${d.reason})` : ''}`,
  );
  return true;
}

/**
 * The reward epoch: when the running epoch holds a snapshot of the demo companies, the chain's clock moves past its
 * end through the epoch's last day, traded as the simulated days are (stepClosingDay: its snapshot is the Fortune
 * List's latest), the epoch is distributed and every company claims. A second run finds
 * the rewards and only claims what is left.
 */
export async function stepEpoch(ctx: Ctx, snapshotAt: number | undefined) {
  ctx.progress.step('epochs: reading the running epoch');
  const current = await ctx.api.data('GET', '/api/epochs/current');
  let rewards = await claimables(ctx);
  const hasReward = [...rewards.values()].some((list) => list.length > 0);
  const plan = planEpoch(current, hasReward, snapshotAt);
  if (plan.kind === 'wait-snapshot') {
    ctx.summary.push(`epoch ${current.epochNumber}: running, not finalized (waits for a score snapshot)`);
    return;
  }
  if (plan.kind === 'advance') {
    ctx.progress.step(`epochs: moving the chain ${Math.round(plan.seconds / 3600)} h ahead`);
    const before = Number((await ctx.client.getBlock({ blockTag: 'latest' })).timestamp);
    await stepClosingDay(ctx, before + plan.seconds);
    ctx.summary.push(`chain clock moved ${plan.seconds} s ahead: epoch ${current.epochNumber} ended`);
  }
  if (plan.kind !== 'claim') {
    if (!(await distribute(ctx))) return;
    rewards = await claimables(ctx);
  }
  if (plan.kind === 'claim') {
    ctx.summary.push(
      `epoch ${current.epochNumber}: running, ${Math.round(current.nextEpochIn / 3600)} h of chain time left; earlier rewards found`,
    );
  }
  let claimed = 0;
  let total = 0n;
  for (const c of ctx.plan) {
    const company = ctx.companies.get(c.slug);
    for (const entry of rewards.get(c.slug) ?? []) {
      if (entry.alreadyClaimed) continue;
      ctx.progress.step(`epochs: ${c.slug} claims epoch ${entry.epochNumber}`);
      const res = await ctx.api.call('POST', '/api/epochs/claim', {
        signer: ctx.accounts[c.account]!,
        body: { companyId: company.id, epochNumber: entry.epochNumber },
      });
      if (res.status === 429 && res.body?.error?.code === 'GAS_BUDGET_EXCEEDED') {
        // The company used its chain day's gas budget: the claim waits for the chain's next day.
        ctx.notes.push(
          `${c.slug}: the claim of epoch ${entry.epochNumber} waits for the company's daily gas budget, used up on the chain's current day (${res.body.error.message}); run npm run demo again once the chain's day has changed to claim it`,
        );
        continue;
      }
      if (res.status !== 200) throw new DemoError(`POST /api/epochs/claim: ${describe(res)}`);
      const result = res.body.data;
      if (!result.alreadyClaimed) {
        claimed++;
        total += BigInt(result.amount);
      }
    }
  }
  const after = await claimables(ctx);
  const paid = [...after.values()].flat().filter((e) => e.alreadyClaimed).length;
  ctx.summary.push(
    `claims now: ${claimed} (${formatUnitsShort(total, 18)} primary tokens to the treasuries); claimed in all: ${paid}`,
  );
}
