// `npm run demo`: fills a RUNNING ai-economy service on its local anvil chain with life, over real HTTP and real
// transactions. Dev accounts 1-9 of anvil's mnemonic mint access cards, create companies across the categories and
// both leagues, deploy their C-suites, launch tokens, stake primary tokens, fund three companies' agent wallets and
// run a decision round each. Market wallets linked to no company trade the tokens (two graduate into their Uniswap
// v4 pool). Then the chain's clock moves through a few simulated days (days.ts): the market trades at set hours,
// the engine runs the scheduled rounds (whose agents trade and stake), and each day closes with its score snapshot;
// last the clock moves on to the reward epoch's last day, traded as the others (its snapshot is the Fortune List's
// latest), and past the epoch's end, where the epoch is finalized and claimed. Each step reads the state first and only does what is missing, so
// a second run does no harm. It refuses any chain but 31337: it moves the chain's clock and signs with the public
// dev keys. The plan of companies is in plan.ts (the plan of days in days-plan.ts), the command line in args.ts,
// the progress bar in progress.ts, amounts in units.ts and the epoch decision in epoch-plan.ts; the plumbing (API
// client, chain helpers) in context.ts, and the steps in companies.ts, agents.ts, market.ts, days.ts and epoch.ts.
import { existsSync, readFileSync } from 'node:fs';
import { ANVIL_CHAIN_ID } from '../../src/chain/anvil.ts';
import { scriptOptions } from '../flags.ts';
import { stepAgentPortfolios, stepAgentWallets } from './agents.ts';
import { localCronSecret, parseDemoArgs, USAGE } from './args.ts';
import { stepCompanies, stepLeagues, stepSuites, stepTreasuries } from './companies.ts';
import { type Ctx, connect, DemoError } from './context.ts';
import { stepDays, stepMarketTraders } from './days.ts';
import { stepDecisions, stepEpoch, stepSnapshot } from './epoch.ts';
import { stepStaking, stepTokens, stepTrading } from './market.ts';
import { DEMO_STEPS, STAKE_TARGETS } from './plan.ts';
import { Progress } from './progress.ts';

function urls(ctx: Ctx): string[] {
  const base = ctx.options.url;
  // The company whose token the plan graduates (the small plan graduates none; its market may, or not).
  const featured = (ctx.plan.find((c) => c.token?.graduate) ?? ctx.plan.find((c) => c.token) ?? ctx.plan[0]!).slug;
  const human = (ctx.plan.find((c) => c.ceoPrompt) ?? ctx.plan[0]!).slug;
  const staker = ctx.accounts[STAKE_TARGETS[0]!.account]!.address;
  const rows: [string, string][] = [
    ['/', 'the web app: the token board, the Fortune List, staking and rewards'],
    [`/companies/${featured}`, 'a company in the web app: its agents, token, scores and decisions'],
    ['/api/docs', 'the API reference'],
    ['/api/fortune-list', 'the ranked score snapshot'],
    [`/api/companies/${featured}`, 'a company and its seven agents'],
    [
      `/api/companies/${featured}/token`,
      'its token: price, market cap, and its bonding curve or, once graduated, its Uniswap v4 pool',
    ],
    [`/api/companies/${human}/decisions`, "a HUMAN-league company's decision rounds"],
    ['/api/companies/demo-spot-sprinters/portfolio', "a trading company's agent wallets, positions and PnL"],
    [`/api/epochs/claimable/${featured}`, "a company's epoch rewards"],
    ['/api/epochs/current', 'the running epoch (chain time)'],
    ['/api/staking/stats', 'the staking pool'],
    [`/api/staking/position/${staker}`, "dev account 1's stake and card boost"],
    ['/api/v1/tokens', 'API key (x-api-key): npm run cli -- api-keys create --name demo'],
    ['/api/v1/events', 'live events (SSE); API key once any key exists: curl -N -H "x-api-key: aie_..."'],
  ];
  const width = Math.max(...rows.map(([p]) => base.length + p.length));
  return rows.map(([p, what]) => `${`${base}${p}`.padEnd(width)}  ${what}`);
}

async function main() {
  const options = scriptOptions(parseDemoArgs, USAGE);
  if (!options) return;
  options.secret ??= localCronSecret(options.url, process.env, (file) =>
    existsSync(file) ? readFileSync(file, 'utf8') : undefined,
  );
  const started = Date.now();
  const run: Record<(typeof DEMO_STEPS)[number], (ctx: Ctx) => Promise<unknown>> = {
    'cards and companies': stepCompanies,
    treasuries: stepTreasuries,
    'C-suites': stepSuites,
    tokens: stepTokens,
    leagues: stepLeagues,
    'market traders': stepMarketTraders,
    trading: stepTrading,
    staking: stepStaking,
    'agent wallets': stepAgentWallets,
    'decision rounds': stepDecisions,
    'simulated days': stepDays,
    'agent portfolios': stepAgentPortfolios,
  };
  const steps = DEMO_STEPS.map((name) => [name, run[name]] as const);
  const progress = new Progress(steps.length + 3);
  progress.step(`connecting to ${options.url}`);
  const ctx = await connect(options, progress);
  progress.advance('connected');
  for (const [name, step] of steps) {
    progress.step(name);
    await step(ctx);
    progress.advance(name);
  }
  const snapshotAt = await stepSnapshot(ctx);
  progress.advance('scores');
  await stepEpoch(ctx, snapshotAt);
  progress.finish();

  const out = [
    '',
    `ai-economy demo on ${options.url} (chain ${ANVIL_CHAIN_ID}, ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    ...ctx.summary.map((l) => (l.startsWith('  ') ? `  ${l}` : `  - ${l}`)),
    ...(ctx.notes.length ? ['', 'Notes:', ...ctx.notes.map((n) => `  - ${n}`)] : []),
    '',
    'Open:',
    ...urls(ctx).map((u) => `  ${u}`),
    '',
  ];
  process.stdout.write(out.join('\n'));
}

main().catch((err) => {
  process.stderr.write(`\ndemo failed: ${err instanceof DemoError ? err.message : (err as Error).stack}\n`);
  process.exitCode = 1;
});
