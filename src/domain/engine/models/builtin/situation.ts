// How the built-in model reads a company's round context: the token's stage, the treasury's depth, the market's
// activity, and from those the one thing this round should be about. Everything here is a pure function of the
// context, so the same context always reads the same way.
import { createHash } from 'node:crypto';
import { AGENT_ROLES } from '../../../../constants.ts';
import type { Role, RoundContext } from '../types.ts';

/** Below this many USDC the treasury is thin: only free or near-free actions. */
export const LOW_TREASURY_USDC = 500;
/** From this many USDC the treasury can fund campaigns and small market operations. */
export const STRONG_TREASURY_USDC = 10_000;
/** Graduation progress (percent) from which the token is in its final stretch. */
export const NEAR_GRADUATION_PERCENT = 75;

export type Focus =
  | 'fund-treasury'
  | 'preserve-treasury'
  | 'prepare-launch'
  | 'push-graduation'
  | 'build-volume'
  | 'grow-after-graduation'
  | 'grow-score';

export interface Situation {
  context: RoundContext;
  symbol: string;
  stage: 'no-token' | 'bonding' | 'near-graduation' | 'graduated';
  treasury: number | null;
  treasuryLevel: 'unknown' | 'low' | 'healthy' | 'strong';
  price: number | null;
  marketCap: number | null;
  progress: number;
  /** USDC of market cap still missing before graduation, when it can be worked out. */
  toGraduation: number | null;
  volume: number;
  trades: number;
  market: 'quiet' | 'active' | 'hot';
  focus: Focus;
  missingRoles: Role[];
  /** A stable number per company and cycle, to vary wording between companies and rounds. */
  seed: number;
}

function num(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export function stableSeed(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** Picks one of the options by seed: a deterministic variation of wording. */
export function pick<T>(seed: number, options: readonly T[]): T {
  return options[seed % options.length]!;
}

export function symbolOf(context: RoundContext): string {
  if (context.token.symbol) return context.token.symbol;
  const letters = context.company.slug.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return (letters.length >= 2 ? letters : `${letters}CO`).slice(0, 10);
}

export function assess(context: RoundContext): Situation {
  const treasury = num(context.treasuryUsdc);
  const price = num(context.token.price);
  const marketCap = num(context.token.marketCap);
  const progress = Math.max(0, Math.min(100, context.token.graduationProgress || 0));
  const volume = num(context.token.volume24hUsdc) ?? 0;
  const trades = context.token.trades24h;
  const stage =
    context.token.status === 'PRE_PUBLIC'
      ? 'no-token'
      : context.token.status === 'GRADUATED'
        ? 'graduated'
        : progress >= NEAR_GRADUATION_PERCENT
          ? 'near-graduation'
          : 'bonding';
  const treasuryLevel =
    treasury === null
      ? 'unknown'
      : treasury < LOW_TREASURY_USDC
        ? 'low'
        : treasury >= STRONG_TREASURY_USDC
          ? 'strong'
          : 'healthy';
  const market = trades === 0 || volume < 100 ? 'quiet' : trades >= 100 || volume >= 10_000 ? 'hot' : 'active';
  const toGraduation =
    context.token.status === 'BONDING' && marketCap !== null && progress > 0 && progress < 100
      ? (marketCap * (100 - progress)) / progress
      : null;
  const focus: Focus =
    treasuryLevel === 'unknown' && stage === 'no-token'
      ? 'fund-treasury'
      : treasuryLevel === 'low' && stage !== 'near-graduation'
        ? 'preserve-treasury'
        : stage === 'no-token'
          ? 'prepare-launch'
          : stage === 'near-graduation'
            ? 'push-graduation'
            : stage === 'graduated'
              ? 'grow-after-graduation'
              : market === 'quiet'
                ? 'build-volume'
                : 'grow-score';
  const staffed = new Set(context.agents.map((a) => a.role));
  return {
    context,
    symbol: symbolOf(context),
    stage,
    treasury,
    treasuryLevel,
    price,
    marketCap,
    progress,
    toGraduation,
    volume,
    trades,
    market,
    focus,
    missingRoles: AGENT_ROLES.filter((r) => !staffed.has(r)),
    seed: stableSeed(`${context.company.id}:${context.cycle}`),
  };
}

const usdFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const centsFormat = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const smallFormat = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

/** USDC for prose: whole units from 1,000, cents from 1, four significant digits below. */
export function usd(value: number): string {
  if (Math.abs(value) >= 1000) return usdFormat.format(value);
  if (Math.abs(value) >= 1) return centsFormat.format(value);
  return smallFormat.format(value);
}

export function percent(value: number): string {
  return `${Math.round(value)}%`;
}

/** A small spend that suits the treasury: 1% of it, between 5 and 250 USDC; 0 when the treasury is thin. */
export function modestSpend(s: Situation): number {
  if (s.treasury === null || s.treasuryLevel === 'low') return 0;
  return Math.round(Math.min(250, Math.max(5, s.treasury * 0.01)));
}

/** One sentence on the token's market. */
export function tokenLine(s: Situation): string {
  const t = s.context.token;
  const activity = `24 h volume ${usd(s.volume)} USDC over ${t.trades24h} trade${t.trades24h === 1 ? '' : 's'}`;
  const priced =
    s.price === null
      ? 'its price could not be read this round'
      : `it trades at ${usd(s.price)} USDC${s.marketCap === null ? '' : ` (market cap ${usd(s.marketCap)} USDC)`}`;
  switch (s.stage) {
    case 'no-token':
      return 'No token is live yet: the company is private, so there is no price or trading to defend.';
    case 'graduated':
      return `${s.symbol} has graduated into its Uniswap v4 pool; ${priced}; ${activity}.`;
    default: {
      const left = s.toGraduation === null ? '' : `, about ${usd(s.toGraduation)} USDC of market cap short`;
      return `${s.symbol} is on its bonding curve, ${percent(s.progress)} of the way to graduation${left}; ${priced}; ${activity}.`;
    }
  }
}

export function treasuryLine(s: Situation): string {
  if (s.treasury === null) return 'No treasury balance is available (no treasury is set, or the chain did not answer).';
  const tail =
    s.treasuryLevel === 'low'
      ? ', which is thin: spending has to stay minimal'
      : s.treasuryLevel === 'strong'
        ? ', enough to fund a campaign'
        : '';
  return `The treasury holds ${usd(s.treasury)} USDC${tail}.`;
}

/** What the round should be about, as one imperative sentence: the directive a fully autonomous CEO sets. */
export function ownDirective(s: Situation): string {
  const name = s.context.company.name;
  switch (s.focus) {
    case 'fund-treasury':
      return `Get ${name} ready for market: confirm a funded treasury, research the ${categoryLabel(s)} field and publish a first update, spending nothing until the treasury is in place.`;
    case 'preserve-treasury':
      return `Preserve the treasury (${usd(s.treasury ?? 0)} USDC): run this cycle on free reads and one low-cost update, and defer every paid campaign until the balance recovers.`;
    case 'prepare-launch':
      return `Prepare the ${s.symbol} token launch: size the ${categoryLabel(s)} market, line up the launch announcement and keep the treasury (${usd(s.treasury ?? 0)} USDC) intact for it.`;
    case 'push-graduation':
      return s.toGraduation === null
        ? `Push ${s.symbol} through graduation: it is ${percent(s.progress)} of the way there; focus marketing on the final stretch and watch the curve.`
        : `Push ${s.symbol} through graduation: about ${usd(s.toGraduation)} USDC of market cap remains before its Uniswap v4 pool opens; focus marketing on the final stretch and watch the curve.`;
    case 'build-volume':
      return `Revive trading in ${s.symbol}: ${s.trades} trade${s.trades === 1 ? '' : 's'} in 24 h is too quiet; publish a progress update, check the curve price and review what holders see.`;
    case 'grow-after-graduation':
      return `Grow ${s.symbol} after graduation: keep pool activity up (24 h volume ${usd(s.volume)} USDC), keep holders informed and keep the treasury working.`;
    case 'grow-score':
      return `Raise the platform score from ${s.context.company.platformScore.toFixed(1)}: steady, visible progress this cycle with a treasury check, a market read and a public update.`;
  }
}

/** The tactics a strategy-autonomous CEO picks this cycle to serve the owner's standing strategy. */
export function tactics(s: Situation): string[] {
  const list: string[] = [];
  if (s.treasuryLevel === 'low') list.push('keep spending to free reads');
  else if (s.treasuryLevel === 'unknown') list.push('confirm the treasury before any spend');
  switch (s.stage) {
    case 'no-token':
      list.push('research the market ahead of a token launch', 'publish a launch-readiness update');
      break;
    case 'near-graduation':
      list.push('announce the last stretch to graduation', 'track the curve price each step');
      break;
    case 'graduated':
      list.push('watch pool volume and price', 'keep holders informed');
      break;
    default:
      list.push(
        s.market === 'quiet' ? 'publish an update to bring buyers back' : 'ride the current volume with an update',
        'track curve trades',
      );
  }
  if (s.treasuryLevel === 'strong') list.push(`allow up to ${usd(modestSpend(s))} USDC for growth`);
  if (s.missingRoles.length > 0)
    list.push(`cover the missing ${s.missingRoles.join(', ')} role${s.missingRoles.length > 1 ? 's' : ''}`);
  return list;
}

export function categoryLabel(s: Situation): string {
  return s.context.company.category.toLowerCase().replace(/_/g, ' ');
}

/** Roles in the order their proposals matter for the round's focus. */
export function rolePriority(s: Situation): Role[] {
  const first: Record<Focus, Role[]> = {
    'fund-treasury': ['CFO', 'CSO', 'CMO', 'COO'],
    'preserve-treasury': ['CFO', 'COO', 'CRO', 'CISO'],
    'prepare-launch': ['CSO', 'CFO', 'CMO', 'CTO'],
    'push-graduation': ['CMO', 'CFO', 'CRO', 'CSO'],
    'build-volume': ['CMO', 'CRO', 'CSO', 'CFO'],
    'grow-after-graduation': ['CRO', 'CMO', 'CFO', 'CISO'],
    'grow-score': ['CFO', 'CMO', 'CSO', 'CRO'],
  };
  const order = first[s.focus];
  return [...order, ...AGENT_ROLES.filter((r) => !order.includes(r))];
}
