// The platform's settings: decision rounds and their budgets, tokens, epochs and scores, the indexer, the event
// streams and webhooks. Each row: the variable, its kind (config/parse.ts), its default and its docs.
import {
  AGENT_GAS_FLOOR_WEI_DEFAULT,
  COMPANY_GAS_BUDGET_DEFAULT,
  EVENT_BACKFILL_RETENTION_MS_DEFAULT,
  GRADUATION_THRESHOLD_USD,
  GRADUATION_THRESHOLD_USD_MAX,
  GRADUATION_THRESHOLD_USD_MIN,
  READ_CACHE_MAX_MB_DEFAULT,
  SCORE_FLOORS_DEFAULT,
  SSE_HEARTBEAT_MS_DEFAULT,
  SSE_MAX_CONNECTIONS_DEFAULT,
  SSE_MAX_CONNECTIONS_PER_CLIENT_DEFAULT,
  SSE_PUBLIC_BACKLOG_MS_DEFAULT,
  SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT,
  SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT,
  SSE_RETENTION_MS,
  STANDALONE_AGENT_RETENTION_MS_DEFAULT,
  STANDALONE_AGENTS_PER_IP_PER_DAY_DEFAULT,
  TRADING_MIN_HOLD_S_DEFAULT,
} from '../../constants.ts';
import { bigint, bool, durationMs, int, oneOf, setting } from '../parse.ts';

/**
 * EPOCH_REWARD_POOL's bound: the deployment caps the distributor's pools at 10 times it (MAX_REWARD_POOL_FACTOR), and
 * the distributor keeps a pool in 96 bits (docs/contracts.md "Epoch distributor").
 */
export const EPOCH_REWARD_POOL_LIMIT = (2n ** 96n - 1n) / 10n + 1n;

const DAY_MS = 86_400_000;
/** A score floor in whole USDC: at least 1 (the money scale divides by it). */
const usdcFloor = int(1, 1_000_000_000_000);

export const PLATFORM_SETTINGS = {
  DECISION_INTERVAL_S: setting({
    kind: int(10, 30 * 86_400),
    default: 3600,
    doc: 'seconds between two scheduled decision rounds of a company with active agents',
  }),
  DECISION_DETAIL_RETENTION_DAYS: setting({
    kind: int(1, 3650),
    default: 7,
    doc: "days a finished round keeps its details (its phases' notes, its agents' budget rows); past them the `prune-decision-details` job keeps only the decision, its hash and anchoring, outcomes, tokens and costs, so it still verifies (about 4.7 KB a round whole, 2.0 KB pruned: [docs/benchmarks.md](docs/benchmarks.md#round-records-storage))",
  }),
  MANUAL_ROUND_COOLDOWN_S: setting({
    kind: int(0, 86_400),
    default: 300,
    doc: 'seconds between two manual rounds of a company (429 `RATE_LIMITED` sooner)',
  }),
  AGENT_GAS_FLOOR_WEI: setting({
    kind: bigint('wei'),
    default: AGENT_GAS_FLOOR_WEI_DEFAULT,
    doc: "native currency (wei) the platform keeps in each trading agent wallet for gas: topped up to it when below half, and charged to the company's gas budget ([docs/api/agents.md](docs/api/agents.md#wallet-and-funds))",
  }),
  COMPANY_CUSTODY: setting({
    kind: oneOf(['none', 'safe'] as const),
    default: 'safe',
    doc: "`safe`: deploy-suite also gives the company its own Safe (its treasury), controlled by its card's holder, and a Zodiac Roles module limiting its agent keys, through which its agents trade and stake ([docs/contracts.md](docs/contracts.md#custody)); `none`: new companies' agents act from their own wallets, limited in code only (a chain without the custody contracts, or to spare the setup's ~3.5 M gas a company)",
  }),
  COMPANY_GAS_BUDGET: setting({
    kind: bigint('gas'),
    default: COMPANY_GAS_BUDGET_DEFAULT,
    doc: "gas a day the platform pays for one company's transactions (429 `GAS_BUDGET_EXCEEDED` past it; [docs/api/companies.md](docs/api/companies.md#gas-the-platform-pays))",
  }),
  PLATFORM_MODEL_SPEND_CAP_MICRO_USD: setting({
    kind: bigint('micro-USD', 2n ** 62n, '2^62'),
    default: 0n,
    defaultDoc: '`0`: none',
    doc: "model spend a day over every company, in micro-USD (the chain's UTC day); a round that would pass it, or its company's own daily cap (`dailyModelSpendCap`, at most 100 USD), does not start ([docs/api/decisions.md](docs/api/decisions.md#spending-caps))",
  }),
  ENGINE_CONCURRENCY: setting({
    kind: int(1, 4096),
    default: 1024,
    doc: 'a safety cap on the decision rounds one engine process runs at once; the pool runs what the schedule needs, split between the engine replicas alive, up to what its model calls in flight allow (`LLM_MAX_IN_FLIGHT` a provider lane: [docs/operations.md](docs/operations.md#engine-processes-for-a-number-of-companies))',
  }),
  ENGINE_POLL_MS: setting({
    kind: durationMs(100, 3_600_000),
    default: 5000,
    doc: "how often an engine process records itself, sizes its concurrency from the schedule and anchors the rounds that ended (a finished round's place is refilled at once)",
  }),
  ENGINE_SHUTDOWN_GRACE_MS: setting({
    kind: durationMs(0, 3_600_000),
    default: 60_000,
    doc: 'how long a stopping engine process waits for its rounds before it ends them as interrupted (FAILED)',
  }),
  ROUND_STALE_MS: setting({
    kind: durationMs(10_000, DAY_MS),
    default: 600_000,
    doc: 'a RUNNING round with no heartbeat this long is marked FAILED (its process stopped); must be more than twice `LLM_TIMEOUT_MS x (LLM_MAX_RETRIES + 2)`, or start-up stops',
  }),
  GRADUATION_THRESHOLD_USD: setting({
    kind: int(GRADUATION_THRESHOLD_USD_MIN, GRADUATION_THRESHOLD_USD_MAX),
    default: GRADUATION_THRESHOLD_USD,
    doc: 'market cap (USDC) at which a token launched from now on graduates into its Uniswap v4 pool; 100 to 1,000,000,000',
  }),
  // Defaults as DEFAULT_EPOCH_DURATION_S and DEFAULT_EPOCH_REWARD_POOL (src/chain/merkle.ts): a week, 100,000 tokens.
  EPOCH_DURATION_S: setting({
    kind: int(60, 366 * 86_400),
    default: 604_800,
    defaultDoc: '`604800` (a week)',
    doc: 'length of a reward epoch in seconds, 60 to 31622400 (366 days); fixed in the distributor contract at its deployment (epoch 0 starts at 00:00 UTC of the deployment day)',
  }),
  EPOCH_REWARD_POOL: setting({
    kind: bigint('wei', EPOCH_REWARD_POOL_LIMIT, `${EPOCH_REWARD_POOL_LIMIT} (a tenth of 2^96)`),
    default: 100_000n * 10n ** 18n,
    defaultDoc: '`100000000000000000000000` (100,000 tokens)',
    doc: "primary tokens (wei, decimal) each epoch's reward pool holds; the local deployment caps a pool at 10 times this (`maxRewardPool`)",
  }),
  SCORE_FLOOR_TREASURY_USDC: setting({
    kind: usdcFloor,
    default: SCORE_FLOORS_DEFAULT.treasuryUsdc,
    doc: 'the floor each score component is scaled against: full points only at or above the larger of the best company and the floor ([docs/api/fortune.md](docs/api/fortune.md#scaling))',
  }),
  SCORE_FLOOR_TRADING_USDC: setting({
    kind: usdcFloor,
    default: SCORE_FLOORS_DEFAULT.tradingUsdc,
    docWith: 'SCORE_FLOOR_TREASURY_USDC',
  }),
  SCORE_FLOOR_VOLUME_USDC: setting({
    kind: usdcFloor,
    default: SCORE_FLOORS_DEFAULT.volumeUsdc,
    docWith: 'SCORE_FLOOR_TREASURY_USDC',
  }),
  SCORE_FLOOR_ACTIVITY_ROUNDS: setting({
    kind: int(1, 1_000_000),
    default: SCORE_FLOORS_DEFAULT.activityRounds,
    docWith: 'SCORE_FLOOR_TREASURY_USDC',
  }),
  TRADING_MIN_HOLD_S: setting({
    kind: int(0, 30 * 86_400),
    default: TRADING_MIN_HOLD_S_DEFAULT,
    doc: "seconds a position must be held since its latest buy before a sale's PnL counts for the trading score ([docs/api/fortune.md](docs/api/fortune.md#trading))",
  }),
  CHAIN_CONFIRMATIONS: setting({
    kind: int(0, 1000),
    defaultDoc: '`0` locally, `3` with `CHAIN_RPC_URL`',
    doc: 'blocks a log must be buried under before the indexer applies it',
  }),
  CHAIN_FINALITY_DEPTH: setting({
    kind: int(1, 100_000),
    defaultDoc: "`12` locally; unset with `CHAIN_RPC_URL`: the chain's `finalized` tag",
    doc: 'blocks under the head at which a block is final; the indexer detects and undoes reorgs above it ([docs/indexer.md](docs/indexer.md#reorgs)), and scores and rewards read only blocks at or below it ([docs/indexer.md](docs/indexer.md#finality-and-money))',
  }),
  INDEXER_POLL_MS: setting({
    kind: durationMs(50, 600_000),
    defaultDoc: '`500` locally, `2000` with `CHAIN_RPC_URL`',
    doc: 'how often the indexer looks for new blocks once caught up',
  }),
  SSE_MAX_CONNECTIONS: setting({
    kind: int(1, 1_000_000),
    default: SSE_MAX_CONNECTIONS_DEFAULT,
    doc: 'keyed event streams (`/api/v1/events`) one process holds at most; one more answers 429',
  }),
  READ_CACHE_MAX_MB: setting({
    kind: int(0, 65_536),
    default: READ_CACHE_MAX_MB_DEFAULT,
    doc: 'megabytes of read-route bodies one process keeps in memory until a table they were read from changes ([docs/architecture.md](docs/architecture.md#the-read-cache)); `0` keeps none (every read goes to the database)',
  }),
  CHAIN_HEAD_REUSE_MS: setting({
    kind: durationMs(0, 60_000),
    default: 1000,
    doc: 'how long a process answers a conditional read of the chain (`If-None-Match` on the staking and portfolio routes) as of the latest block it read, without asking the node again ([docs/api/README.md](docs/api/README.md#caching)); `0` asks every time',
  }),
  SSE_MAX_CONNECTIONS_PER_CLIENT: setting({
    kind: int(1, 1_000_000),
    default: SSE_MAX_CONNECTIONS_PER_CLIENT_DEFAULT,
    doc: 'event streams of one API key (without a key: one client address) in one process',
  }),
  SSE_PUBLIC_MAX_CONNECTIONS: setting({
    kind: int(1, 1_000_000),
    default: SSE_PUBLIC_MAX_CONNECTIONS_DEFAULT,
    doc: "keyless streams of the web app's `GET /api/events` one process holds at most, apart from `SSE_MAX_CONNECTIONS`; one more answers 429",
  }),
  SSE_PUBLIC_MAX_CONNECTIONS_PER_IP: setting({
    kind: int(1, 1_000_000),
    default: SSE_PUBLIC_MAX_CONNECTIONS_PER_IP_DEFAULT,
    doc: 'keyless streams of `GET /api/events` one client address holds at most in one process',
  }),
  SSE_PUBLIC_BACKLOG_MS: setting({
    kind: durationMs(0, 30 * DAY_MS),
    default: SSE_PUBLIC_BACKLOG_MS_DEFAULT,
    doc: 'how far back a `GET /api/events` stream resumes; an older `Last-Event-ID` resumes from the oldest event of that window',
  }),
  SSE_HEARTBEAT_MS: setting({
    kind: durationMs(0, 3_600_000),
    default: SSE_HEARTBEAT_MS_DEFAULT,
    doc: 'silence after which an event stream gets a `: ping` comment; `0` for none, else at least `1000`',
  }),
  EVENT_RETENTION_MS: setting({
    kind: durationMs(60_000, 30 * DAY_MS),
    default: SSE_RETENTION_MS,
    defaultDoc: '`3600000` (1 hour)',
    doc: "the event stream's window: how far back `/api/v1/events` serves and resumes with `Last-Event-ID`; a resume with a later event of its filters older than that answers 410 `EVENTS_EXPIRED` pointing to the backfill (`?after=`)",
  }),
  EVENT_BACKFILL_RETENTION_MS: setting({
    kind: durationMs(60_000, 30 * DAY_MS),
    default: EVENT_BACKFILL_RETENTION_MS_DEFAULT,
    defaultDoc: '`172800000` (2 days)',
    doc: 'how long platform events are kept and read back with `GET /api/v1/events?after=` (at least `EVENT_RETENTION_MS`); from further back 410 `EVENTS_EXPIRED` (about 0.5 GiB of PostgreSQL a day at 10,000 companies: [docs/benchmarks.md](docs/benchmarks.md#event-retention))',
  }),
  WEBHOOK_TIMEOUT_MS: setting({
    kind: durationMs(100, 30_000),
    default: 5000,
    doc: 'how long one webhook attempt may take in all (100 to 30000), then it failed and is retried ([docs/api/webhooks.md](docs/api/webhooks.md#targets))',
  }),
  WEBHOOK_CONCURRENCY: setting({
    kind: int(1, 1024),
    default: 32,
    doc: 'webhook deliveries one process of the `webhooks` role claims and sends at once (1 to 1024)',
  }),
  WEBHOOK_POLL_MS: setting({
    kind: durationMs(50, 60_000),
    default: 1000,
    doc: 'how often a `webhooks` process looks for new events and due deliveries (at once after a full batch)',
  }),
  WEBHOOK_ALLOW_LOOPBACK: setting({
    kind: bool,
    default: false,
    doc: '`true` lets webhook endpoints on loopback addresses through (tests, a local receiver); refused in production. Private, link-local and reserved targets are refused always',
  }),
  STANDALONE_AGENTS_PER_IP_PER_DAY: setting({
    kind: int(1, 1_000_000),
    default: STANDALONE_AGENTS_PER_IP_PER_DAY_DEFAULT,
    doc: 'stand-alone agents (`POST /api/agents`) one client address may create in any 24 hours, whatever the signers',
  }),
  // At least a day: an agent deleted sooner would leave the creation allowances' 24 hours early.
  STANDALONE_AGENT_RETENTION_MS: setting({
    kind: durationMs(DAY_MS, 3_650 * DAY_MS),
    default: STANDALONE_AGENT_RETENTION_MS_DEFAULT,
    doc: 'a stand-alone agent that never did anything (no wallet, identity or activity) is deleted this long after its creation (7 days; at least a day)',
  }),
} as const;
