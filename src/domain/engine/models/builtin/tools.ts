// Which tools a role of the built-in model reaches for: tools are scored by how well their name and description fit
// the role and the round's focus, what they cost against the treasury, and whether their arguments can be known;
// the best one or two with arguments that pass the tool's schema become the role's proposals.
import type { Role, ToolSpec } from '../types.ts';
import { argsFor } from './args.ts';
import { categoryLabel, type Situation, usd } from './situation.ts';
import { isTradingTool } from './trading.ts';

const ROLE_WORDS: Record<Role, string[]> = {
  CFO: ['treasury', 'balance', 'budget', 'price', 'quote', 'usdc', 'finance', 'runway', 'fund', 'revenue', 'cost'],
  CTO: ['chain', 'block', 'contract', 'launcher', 'gas', 'state', 'infra', 'node', 'rpc', 'system', 'token'],
  CMO: ['publish', 'post', 'announce', 'update', 'tweet', 'social', 'campaign', 'marketing', 'content', 'follower'],
  COO: ['operation', 'agent', 'strategy', 'schedule', 'task', 'team', 'process', 'report', 'rank', 'fortune'],
  CSO: ['market', 'research', 'scan', 'platform', 'search', 'competitor', 'trend', 'news', 'staking', 'yield'],
  CISO: [
    'security',
    'audit',
    'risk',
    'permission',
    'allowance',
    'approval',
    'verify',
    'anomaly',
    'treasury',
    'contract',
  ],
  CRO: ['trade', 'market', 'volume', 'swap', 'liquidity', 'risk', 'pool', 'price', 'curve', 'holder'],
};

/** The words of each role's own tools: a tool named so is the role's first reach, explained in the role's voice. */
const PRIMARY_WORDS: Record<Role, string[]> = {
  CFO: ['treasury', 'budget', 'runway', 'fund'],
  CTO: ['chain', 'contract', 'launcher', 'block', 'token'],
  CMO: ['publish', 'announce', 'campaign', 'post', 'tweet'],
  COO: ['agent', 'operation', 'team', 'rank'],
  CSO: ['research', 'platform', 'market', 'competitor', 'search'],
  CISO: ['security', 'audit', 'permission', 'allowance', 'treasury'],
  CRO: ['trade', 'swap', 'liquidity', 'volume'],
};

const FOCUS_WORDS: Record<Situation['focus'], string[]> = {
  'fund-treasury': ['treasury', 'balance', 'research', 'market'],
  'preserve-treasury': ['treasury', 'balance', 'read', 'get', 'check', 'state'],
  'prepare-launch': ['research', 'market', 'search', 'announce', 'treasury', 'competitor'],
  'push-graduation': ['publish', 'announce', 'update', 'price', 'curve', 'graduation', 'token'],
  'build-volume': ['publish', 'update', 'trade', 'volume', 'holder', 'price'],
  'grow-after-graduation': ['pool', 'liquidity', 'volume', 'trade', 'holder', 'publish'],
  'grow-score': ['treasury', 'publish', 'market', 'price'],
};

const MOVES_MONEY = [
  'buy',
  'sell',
  'swap',
  'transfer',
  'send',
  'withdraw',
  'launch',
  'mint',
  'deposit',
  'stake',
  'pay',
];
const READS = ['get', 'read', 'list', 'fetch', 'check', 'query', 'view', 'quote'];
const TOKEN_MARKET = ['price', 'curve', 'trade', 'pool', 'holder', 'volume', 'liquidity', 'graduation'];
const UNKNOWABLE_ARG = /(address|wallet|recipient|url|uri|link|hash)$/i;

/** The words of a tool's name: `getTreasuryBalance`, `get_treasury_balance` and `treasury.balance` alike. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const matches = (list: string[], vocabulary: string[]) =>
  list.filter((w) => vocabulary.some((v) => w === v || w.startsWith(v) || (v.startsWith(w) && w.length >= 4))).length;

/** How well a tool fits a role this round: higher is better, 0 or less means no reason to use it. */
export function toolScore(tool: ToolSpec, role: Role, s: Situation): number {
  const name = words(tool.name);
  const description = words(tool.description ?? '');
  let score = 3 * matches(name, ROLE_WORDS[role]) + Math.min(2, matches(description, ROLE_WORDS[role]));
  if (matches(name, PRIMARY_WORDS[role]) > 0) score += 3;
  score += matches(name, FOCUS_WORDS[s.focus]);
  const movesMoney = matches(name, MOVES_MONEY) > 0;
  const reads = matches(name, READS) > 0;
  if (movesMoney) {
    score -= s.treasuryLevel === 'strong' ? 0 : s.treasuryLevel === 'healthy' ? 2 : 8;
    if (name.includes('launch') && s.stage !== 'no-token') score -= 10;
  }
  if (reads && (s.treasuryLevel === 'low' || s.treasuryLevel === 'unknown')) score += 1;
  // A cost that is material against a thin treasury (0.1% of it or more) counts against the tool.
  if (s.treasuryLevel === 'low' && tool.cost >= (s.treasury ?? 0) / 1000) score -= 2;
  // Without a token, reads of its price, curve or trades have nothing to read.
  if (s.stage === 'no-token' && matches(name, TOKEN_MARKET) > 0 && !name.includes('market')) score -= 10;
  if (s.stage === 'graduated' && name.includes('curve')) score -= 3;
  const required = (tool.parameters as { required?: unknown }).required;
  if (Array.isArray(required)) {
    score -= 2 * required.filter((r) => typeof r === 'string' && UNKNOWABLE_ARG.test(r)).length;
  }
  return score;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What a tool is for this round, said from its name; undefined when the name says nothing familiar. */
function purposeOf(tool: ToolSpec, s: Situation, args: Record<string, unknown>): string | undefined {
  const name = words(tool.name);
  const is = (...vocabulary: string[]) => matches(name, vocabulary) > 0;
  const treasury = s.treasury === null ? 'an unknown balance' : `${usd(s.treasury)} USDC`;
  if (is('publish', 'post', 'announce', 'tweet', 'broadcast')) {
    if (s.stage === 'no-token')
      return `Build an audience before ${s.symbol} launches with a first public update on what ${s.context.company.name} does.`;
    if (s.stage === 'near-graduation')
      return s.toGraduation === null
        ? `Graduation is close (${Math.round(s.progress)}%); an update now can bring the buyers that close it.`
        : `About ${usd(s.toGraduation)} USDC of market cap stands between ${s.symbol} and graduation; an update now can bring the buyers that close it.`;
    if (s.stage === 'graduated')
      return `${s.symbol} now trades in a permanent v4 pool; telling holders what ships next keeps volume (${usd(s.volume)} USDC in 24 h) up.`;
    if (s.market === 'quiet')
      return `Only ${plural(s.trades, 'trade')} in 24 h: a visible update gives holders a reason to come back.`;
    return `Keep the momentum of ${plural(s.trades, 'trade')} in 24 h with a progress update.`;
  }
  if (typeof args.role === 'string' && typeof args.preset === 'string') {
    const preset = args.preset.toLowerCase();
    const why =
      preset === 'conservative'
        ? `cash is short (${treasury}), so that role should spend carefully`
        : preset === 'aggressive'
          ? s.stage === 'near-graduation'
            ? 'the final stretch to graduation rewards a bolder push'
            : `the treasury (${treasury}) can carry a bolder push`
          : 'a steady course suits where the company stands';
    return `Set the ${args.role} to ${preset}: ${why}.`;
  }
  if (is('treasury', 'balance'))
    return `Confirm the treasury balance (last read: ${treasury}) before anything is spent.`;
  if (is('trade', 'volume')) {
    return s.stage === 'no-token'
      ? 'Scan recent trading for the demand a launch would meet.'
      : `Scan ${s.symbol}'s recent trades: ${plural(s.trades, 'trade')} and ${usd(s.volume)} USDC in 24 h; who is buying matters more than the count.`;
  }
  if (is('price', 'curve', 'quote')) {
    return s.price === null
      ? `Read ${s.symbol}'s price and market cap, which could not be read for the brief.`
      : `Track ${s.symbol}'s price (${usd(s.price)} USDC) and market cap as the round's actions land.`;
  }
  if (is('platform', 'tokens', 'competitor', 'market')) {
    return `Compare with the platform's most traded tokens, to see where ${categoryLabel(s)} demand is going.`;
  }
  if (is('rank', 'fortune', 'score')) {
    return `Check the Fortune List rank behind the platform score of ${s.context.company.platformScore.toFixed(1)}.`;
  }
  if (is('staking', 'stake', 'yield', 'apy'))
    return "Read the staking pool's rate: it is what holders weigh against holding the token.";
  return undefined;
}

/**
 * Why a role proposes what it does: for its first proposal with one of its own tools, the role's own concern;
 * otherwise what the tool is for this round.
 */
export function rationaleFor(
  role: Role,
  tool: ToolSpec,
  s: Situation,
  args: Record<string, unknown> = {},
  first = true,
): string {
  const own = first && matches(words(tool.name), PRIMARY_WORDS[role]) > 0;
  const purpose = purposeOf(tool, s, args);
  if (!own || role === 'CMO' || purpose?.startsWith('Set the')) {
    return purpose ?? `${tool.description.trim()} (${role}, cycle ${s.context.cycle}).`;
  }
  const c = s.context;
  const treasury = s.treasury === null ? 'an unknown balance' : `${usd(s.treasury)} USDC`;
  switch (role) {
    case 'CFO':
      if (s.treasuryLevel === 'low')
        return `The treasury is down to ${treasury}; a free check of funds comes before any spend.`;
      if (s.treasuryLevel === 'unknown')
        return 'No treasury balance could be read; every plan waits on knowing what the company can spend.';
      if (s.stage === 'no-token')
        return `Launch costs come out of the treasury (${treasury}); confirm what is available before committing.`;
      if (s.stage === 'near-graduation')
        return `${s.symbol} is ${Math.round(s.progress)}% of the way to graduation: track the treasury (${treasury}) and the price through the final stretch.`;
      return `Check runway: ${treasury} in the treasury against this cycle's plans${s.price === null ? '' : `, with ${s.symbol} at ${usd(s.price)} USDC`}.`;
    case 'CTO':
      return s.stage === 'no-token'
        ? 'Confirm the chain state the company relies on before a launch adds a token to it.'
        : `Verify ${s.symbol}'s on-chain state before the team acts on it, so no decision rests on a stale number.`;
    case 'CISO':
      return s.stage === 'no-token'
        ? 'Review the company contracts and balances before a token goes live; nothing should surprise the launch.'
        : `Look for anything unexpected around ${s.symbol} and the treasury on-chain before the team moves funds or publishes.`;
    case 'CRO':
      if (s.stage === 'no-token')
        return `Gauge the ${categoryLabel(s)} market before launch: demand decides the launch's timing.`;
      return `Read recent ${s.symbol} trading: ${usd(s.volume)} USDC over ${plural(s.trades, 'trade')} in 24 h shows whether demand is real or thin.`;
    case 'COO':
      return s.missingRoles.length > 0
        ? `Keep operations on track: the ${s.missingRoles.join(', ')} role${s.missingRoles.length > 1 ? 's are' : ' is'} still unstaffed.`
        : `Keep operations on track: check where ${c.company.name} stands before the team's next moves.`;
    default:
      return s.stage === 'no-token'
        ? `Size the ${categoryLabel(s)} opportunity that the ${s.symbol} launch will address.`
        : `Research where ${categoryLabel(s)} is heading, so next cycle's strategy rests on more than ${s.symbol}'s own chart.`;
  }
}

/** A change that is already in place: setting a role's strategy preset to the one it has. */
function alreadySo(args: Record<string, unknown>, s: Situation): boolean {
  if (typeof args.role !== 'string' || typeof args.preset !== 'string') return false;
  const agent = s.context.agents.find((a) => a.role === args.role);
  return agent?.strategy.toUpperCase().includes(args.preset.toUpperCase()) ?? false;
}

export interface Proposal {
  tool: string;
  args: Record<string, unknown>;
  rationale: string;
}

/** One or two proposals for the role from the tools it may use; none when no tool's arguments can be made. */
export function proposalsFor(role: Role, tools: ToolSpec[], s: Situation): Proposal[] {
  const ranked = tools
    // Trading and vetoes follow the strategies of trading.ts, never a guess from a tool's name.
    .filter((tool) => !isTradingTool(tool.name))
    .map((tool) => ({ tool, score: toolScore(tool, role, s) }))
    .sort((a, b) => b.score - a.score || a.tool.cost - b.tool.cost || (a.tool.name < b.tool.name ? -1 : 1));
  const proposals: Proposal[] = [];
  for (const { tool, score } of ranked) {
    if (proposals.length > 0 && (score <= 0 || s.focus === 'preserve-treasury')) break;
    if (proposals.length >= 2) break;
    const args = argsFor({ situation: s, role, tool });
    if (args === undefined || alreadySo(args, s)) continue;
    proposals.push({ tool: tool.name, args, rationale: rationaleFor(role, tool, s, args, proposals.length === 0) });
  }
  return proposals;
}
