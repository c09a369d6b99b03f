// The simulated days on the chain's clock, and the epoch: each day every actor starts its day, the clock moves to
// each trading slot (the actors trade there, then the engine runs the scheduled rounds that fall due), and just
// past the chain's midnight the day's score snapshot is taken. An epoch that ends on the way is distributed; after
// the last day, if none was distributed with participants, the clock moves to the running epoch's end and it is.
// Then every company's creator claims its rewards through POST /api/epochs/claim.
import { cron, describe, rpc } from '../../scripts/demo/context.ts';
import { moveClockTo, roundsRun, snapshotToday } from '../../scripts/demo/days.ts';
import { dayStart, nextMidnight } from '../../scripts/demo/days-plan.ts';
import { chainTime } from '../../src/chain/time.ts';
import { type Actor, inParallel } from './actor.ts';
import type { World } from './world.ts';

/** Hours of the chain's UTC day at which the actors trade and the engine's rounds are waited for. */
export const SLOT_HOURS = [6, 18] as const;

export interface Distributed {
  epoch: number;
  participants: number;
  rewardPool: bigint;
  /** The epoch's end on the chain's clock (seconds). */
  endTime: number;
}

/**
 * The epochs a run of `days` days on the chain's clock sees end (pure): epoch 0 starts at 00:00 UTC of the deployment
 * day (the distributor contract), day 0 is that day, and each day ends at its midnight, where the snapshot is taken;
 * an epoch that ends at or before a day's midnight is distributed after that day's snapshot. With the default week,
 * a 30-day run distributes four (after days 7, 14, 21 and 28: 0-based days 6, 13, 20 and 27).
 */
export function epochsEnding(days: number, epochDays: number): { epoch: number; afterDay: number }[] {
  const out: { epoch: number; afterDay: number }[] = [];
  for (let epoch = 0; (epoch + 1) * epochDays <= days; epoch++) {
    out.push({ epoch, afterDay: Math.ceil((epoch + 1) * epochDays) - 1 });
  }
  return out;
}

const now = async (world: World) => Number(await chainTime(world.ctx.client));

/**
 * When a trading slot of the day runs (pure): at its hour, the clock moved there, or, when that hour has passed (or
 * is within a minute), now, where the clock is. The chain's clock starts at the machine's time, so the setup ends
 * at whatever hour of day 0 the run was started at plus the setup's minutes; a slot whose hour had passed was skipped
 * before, so day 0 had both slots when a run started before 06:00 UTC, only the 18:00 one when it started later, and
 * none after 18:00: what the actors trade on day 0 (herding's day-0 buys, the market's and the volume wallets' first
 * orders) depended on the hour of day the run was started at.
 */
export function slotTime(hourAt: number, nowAt: number): { at: number; move: boolean } {
  return hourAt < nowAt + 60 ? { at: nowAt, move: false } : { at: hourAt, move: true };
}

async function distribute(world: World, secret: string, pool: bigint, endTime: number, out: Distributed[]) {
  const d = await cron(world.ctx, '/api/cron/epoch-distribute', secret);
  if (d.status === 'finalized') {
    out.push({ epoch: d.epoch, participants: d.participantCount, rewardPool: pool, endTime });
    world.log(`epoch ${d.epoch} finalized: ${d.participantCount} participants`);
  }
}

/**
 * The day's snapshot, waited for longer than the demo does: on a loaded machine the indexer's finality can lag the
 * demo's minute (a 30-company run stopped on day 5 so), and a simulation that stops there loses its whole run.
 */
async function snapshot(world: World, secret: string) {
  // The day's last block is final FINALITY_DEPTH blocks under the head: mined at once, instead of the demo's one
  // block each half second while it waits (8-22 s a day on this machine).
  await rpc(world.ctx, 'anvil_mine', [`0x${FINALITY_DEPTH.toString(16)}`]);
  for (let attempt = 1; ; attempt++) {
    try {
      return await snapshotToday(world.ctx, secret);
    } catch (err) {
      if (attempt >= SNAPSHOT_ATTEMPTS || !/still waits/.test((err as Error).message)) throw err;
      world.log(`the snapshot still waits for the indexer's finality (attempt ${attempt}); waiting once more`);
    }
  }
}

const SNAPSHOT_ATTEMPTS = 5;
/** The service's CHAIN_FINALITY_DEPTH on its local chain (src/config/settings/platform.ts: 12 locally). */
const FINALITY_DEPTH = 12;
/** Actors starting their day at once, and companies claiming at once. */
const DAY_START_LANES = 6;
const CLAIM_LANES = 6;

export async function runDays(world: World, actors: Actor[], days: number, secret: string): Promise<Distributed[]> {
  const distributed: Distributed[] = [];
  let engine = true;
  let current = await world.ctx.api.data('GET', '/api/epochs/current');
  const epochDays = (Number(current.endTime) - Number(current.startTime)) / 86_400;
  world.log(`${epochsEnding(days, epochDays).length} epoch(s) of ${epochDays} day(s) end in ${days} day(s)`);
  for (let day = 0; day < days; day++) {
    // Each actor's day start sends from its own wallets (a builder's growth, a card lent): at once, not in turn.
    await world.timed('days: actors start the day', () =>
      inParallel(actors, DAY_START_LANES, async (a) => a.startDay?.(world, day)),
    );
    const start = dayStart(await now(world));
    for (const [slot, hour] of SLOT_HOURS.entries()) {
      const { at, move } = slotTime(start + hour * 3_600, await now(world));
      if (move) await moveClockTo(world.ctx, at);
      else
        world.log(
          `day ${day + 1} ${String(hour).padStart(2, '0')}:00 had passed before the day began: its slot runs now`,
        );
      const slotStart = Date.now();
      await world.timed('days: actors trade', async () => {
        for (const a of actors) await a.slot?.(world, day, slot);
      });
      const traded = Date.now();
      if (engine) {
        engine = await world.timed('days: scheduled rounds', () => roundsRun(world.ctx, at));
        if (!engine) world.log('the engine ran no scheduled round in time: rounds are no longer waited for');
      }
      world.log(
        `day ${day + 1} ${String(hour).padStart(2, '0')}:00: actors ${((traded - slotStart) / 1000).toFixed(1)} s, rounds ${((Date.now() - traded) / 1000).toFixed(1)} s`,
      );
    }
    await moveClockTo(world.ctx, nextMidnight(await now(world)));
    const snap = await world.timed('days: score snapshot', () => snapshot(world, secret));
    world.log(`day ${day + 1} of ${days}: snapshot ${snap.date} ${snap.status}`);
    const next = await world.ctx.api.data('GET', '/api/epochs/current');
    if (next.epochNumber > current.epochNumber) {
      await world.timed('epoch: distribute', () =>
        distribute(world, secret, BigInt(current.rewardPool), Number(current.endTime), distributed),
      );
    }
    current = next;
  }
  if (!distributed.some((d) => d.participants > 0)) {
    await moveClockTo(world.ctx, Number(current.endTime) + 5);
    await world.timed('epoch: distribute', () =>
      distribute(world, secret, BigInt(current.rewardPool), Number(current.endTime), distributed),
    );
  }
  return distributed;
}

/** Every reward of the simulation's companies, claimed by their creators: wei per company slug and epoch. */
export async function claimAll(world: World): Promise<Map<string, Map<number, bigint>>> {
  const paid = new Map<string, Map<number, bigint>>();
  // Each company's creator claims its own (a signer each): several at once.
  await inParallel(world.companies, CLAIM_LANES, async (c) => {
    const id = world.companyId(c.plan.slug);
    const { claimable } = await world.ctx.api.data('GET', `/api/epochs/claimable/${id}`);
    const byEpoch = new Map<number, bigint>();
    for (const entry of claimable as { epochNumber: number; amount: string; alreadyClaimed: boolean }[]) {
      byEpoch.set(entry.epochNumber, BigInt(entry.amount));
      if (entry.alreadyClaimed) continue;
      const res = await world.ctx.api.call('POST', '/api/epochs/claim', {
        signer: world.ctx.account(c.plan.account),
        body: { companyId: id, epochNumber: entry.epochNumber },
      });
      if (res.status !== 200) world.log(`${c.plan.slug}: claim of epoch ${entry.epochNumber}: ${describe(res)}`);
    }
    paid.set(c.plan.slug, byEpoch);
  });
  return new Map(world.companies.map((c) => [c.plan.slug, paid.get(c.plan.slug)!]));
}
