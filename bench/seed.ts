// Seeds a large platform straight into PostgreSQL for bench/http.ts: 10,000 companies, 70,000 agents (seven each),
// 1,000,000 platform events, 365 daily score snapshots of every company (3,650,000 rows), 200,000 token trades (one
// in twenty by an agent) and a proven treasury per company with its balance history (three observations each).
// Each table is one INSERT ... SELECT over generate_series (the snapshots two, half the days each), deterministic
// (no random()), so two runs seed the same rows; two sessions load and index in parallel, one per core. The schema
// comes from the project's migrations (openDatabase), so the seed always matches the code.
import pg from 'pg';
import { AGENT_ROLES, COMPANY_CATEGORIES, EVENT_TYPES } from '../src/constants.ts';
import { openDatabase } from '../src/db/client.ts';

export interface SeedCounts {
  companies: number;
  agentsPerCompany: number;
  events: number;
  snapshotDays: number;
  trades: number;
}

/** The platform at `companies` companies, the rest in proportion: seven agents, 100 events (the last hour) and
 * 20 trades (the last day) a company, and a year of daily snapshots. */
export const seedCounts = (companies: number): SeedCounts => ({
  companies,
  agentsPerCompany: 7,
  events: companies * 100,
  snapshotDays: 365,
  trades: companies * 20,
});

export const DEFAULT_SEED: SeedCounts = seedCounts(10_000);

/** The local server's database `bench`, dropped and created again on every run. */
export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/test';

const sqlArray = (values: readonly string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/** Slug of the company number i (1-based); the benchmark asks for these. */
export const benchSlug = (i: number) => `bench-company-${i}`;

/**
 * Where to seed: BENCH_DATABASE_URL as given (its tables are emptied first), or else the database `bench` on the
 * local server, dropped and created again.
 */
export async function resetBenchDatabase(): Promise<string> {
  const given = process.env.BENCH_DATABASE_URL;
  if (given) return given;
  const admin = new pg.Client({ connectionString: process.env.BENCH_SERVER_URL ?? DEFAULT_SERVER_URL });
  await admin.connect();
  try {
    await admin.query('drop database if exists bench with (force)');
    await admin.query('create database bench');
  } finally {
    await admin.end();
  }
  const url = new URL(process.env.BENCH_SERVER_URL ?? DEFAULT_SERVER_URL);
  url.pathname = '/bench';
  return url.toString();
}

export interface SeedReport {
  counts: Record<string, number>;
  /** Seconds per statement. */
  seconds: Record<string, number>;
  totalSeconds: number;
}

export async function seedBenchDatabase(url: string, counts: SeedCounts = DEFAULT_SEED): Promise<SeedReport> {
  // The project's migrations, under its advisory lock, as the service applies them.
  const database = await openDatabase({ url, poolSize: 1 });
  await database.close();

  // Two sessions: the big independent inserts and the index builds run in parallel, one per core.
  const client = new pg.Client({ connectionString: url });
  const second = new pg.Client({ connectionString: url });
  await Promise.all([client.connect(), second.connect()]);
  const seconds: Record<string, number> = {};
  const run = async (name: string, text: string, on: pg.Client = client) => {
    const started = performance.now();
    await on.query(text);
    seconds[name] = +((performance.now() - started) / 1000).toFixed(2);
  };
  const n = counts.companies;
  const agentsTotal = n * counts.agentsPerCompany;
  const started = performance.now();
  try {
    // The rows are consistent by construction: foreign-key triggers are skipped while loading (superuser only; the
    // local server's trust login is one), and the secondary indexes of the big tables are built once at the end.
    for (const session of [client, second]) {
      await session.query('set synchronous_commit = off');
      await session.query(`set maintenance_work_mem = '256MB'`);
      await session.query('set session_replication_role = replica').catch(() => {});
    }
    const indexes = await client.query<{ def: string; name: string }>(
      `select indexdef as def, indexname as name from pg_indexes
       where schemaname = current_schema() and tablename in ('platform_events', 'score_snapshots', 'token_trades', 'agents')
         and indexname not in (select conname from pg_constraint)`,
    );
    for (const { name } of indexes.rows) await client.query(`drop index "${name}"`);
    await run(
      'truncate',
      `truncate companies, agents, platform_events, score_snapshots, token_trades, decision_rounds, decision_budgets,
         reward_claims, reward_epochs, api_keys, company_treasuries, treasury_accounts, treasury_observations
         restart identity cascade`,
    );
    // Company i: a card i; 40% launched a token (30% on the curve, 10% graduated); created over the last year.
    await run(
      'companies',
      `insert into companies (id, name, slug, description, category, status, league, token_status, token_name,
         token_symbol, token_address, token_graduation_threshold, token_launch_requested_at, token_launch_tx_hash,
         token_public_at, token_graduated_at, token_pool_id, treasury_address, creator_address, owner_block, logo_url,
         card_token_id, card_locked_at, platform_score, created_at, updated_at)
       select 'bench' || lpad(i::text, 7, '0'), 'Bench Company ' || i, 'bench-company-' || i,
         'Company number ' || i || ' of the benchmark: an AI-run fund trading on-chain.',
         (${sqlArray(COMPANY_CATEGORIES)})[1 + i % ${COMPANY_CATEGORIES.length}],
         case when i % 10 < 4 then 'PUBLIC' else 'PRIVATE' end,
         case when i % 5 = 0 then 'HUMAN' else 'MACHINE' end,
         case when i % 10 < 3 then 'BONDING' when i % 10 = 3 then 'GRADUATED' else 'PRE_PUBLIC' end,
         case when i % 10 < 4 then 'Bench Token ' || i end,
         case when i % 10 < 4 then 'BT' || i end,
         case when i % 10 < 4 then '0x' || lpad(to_hex(i), 40, '0') end,
         case when i % 10 < 4 then 10000000000 end,
         case when i % 10 < 4 then t - interval '1 hour' end,
         case when i % 10 < 4 then '0xaa' || lpad(to_hex(i), 62, '0') end,
         case when i % 10 < 4 then t + interval '1 day' end,
         case when i % 10 = 3 then t + interval '10 days' end,
         case when i % 10 = 3 then '0xbb' || lpad(to_hex(i), 62, '0') end,
         '0x' || lpad(to_hex(1000000 + i), 40, '0'),
         '0x' || lpad(to_hex(1 + i % 2000), 40, '0'),
         1000 + i, 'https://example.com/logos/' || i || '.png',
         i, t, 0, t, t
       from generate_series(1, ${n}) i cross join lateral (select now() - make_interval(secs => (${n} - i) * 3100)) x(t)`,
    );
    // Seven agents a company, one of each role; one in twenty terminated.
    await run(
      'agents',
      `insert into agents (id, company_id, name, description, role, status, creator_address, wallet_index,
         on_chain_address, erc8004_token_id, persona, skills, strategy, decisions_count, llm_calls_total,
         tool_calls_total, last_active_at, created_at, updated_at)
       select 'bagent' || lpad(a::text, 8, '0'), c.id, c.name || ' ' || r, 'The ' || r || ' of ' || c.name, r,
         case when a % 20 = 0 then 'TERMINATED' else 'ACTIVE' end, c.creator_address, a,
         '0xcc' || lpad(to_hex(a), 38, '0'), (a - 1)::text,
         jsonb_build_object('role', r, 'description', 'Runs the ' || r || ' desk with care'),
         '["research","trading","risk"]'::jsonb,
         '{"type":"momentum","preset":"BALANCED"}'::jsonb,
         a % 50, a % 300, a % 900, c.created_at + interval '2 hours', c.created_at + make_interval(secs => a % 7),
         c.created_at
       from generate_series(1, ${agentsTotal}) a
         cross join lateral (select (${sqlArray(AGENT_ROLES)})[1 + (a - 1) % ${counts.agentsPerCompany}]) rr(r)
         join companies c on c.card_token_id = 1 + (a - 1) / ${counts.agentsPerCompany}`,
    );
    await run('agent wallet sequence', `select setval('agent_wallet_index_seq', ${agentsTotal})`);
    // Each company's treasury, proven when the company was created, with its balance history as the treasury stream
    // records it: the opening balance, then a transfer in 20 hours ago and one out 4 hours ago (cumulative
    // balance-time carried between them).
    await run(
      'treasuries',
      `with t as (
         select c.id, c.treasury_address as address, c.created_at as t0,
           greatest(c.created_at, now() - interval '20 hours') + interval '1 second' as t1,
           greatest(c.created_at, now() - interval '4 hours') + interval '2 seconds' as t2,
           1000000::numeric * (c.card_token_id % 5000) as b0, 1000000::numeric * (c.card_token_id % 700) as d1,
           1000000::numeric * (c.card_token_id % 300) as d2
         from companies c
       ),
       spans as (
         insert into company_treasuries (id, company_id, address, from_time)
         select 'bt' || id, id, address, t0 from t
       ),
       accounts as (insert into treasury_accounts (address) select address from t)
       insert into treasury_observations (address, block_number, log_index, observed_at, balance, cumulative)
       select address, 1, -1, t0, b0, 0 from t
       union all
       select address, 2, 0, t1, b0 + d1, b0 * extract(epoch from t1 - t0) from t
       union all
       select address, 3, 0, t2, b0 + d1 - d2,
         b0 * extract(epoch from t1 - t0) + (b0 + d1) * extract(epoch from t2 - t1) from t`,
    );
    await run(
      'treasury proofs',
      `update companies set treasury_proven_at = created_at where treasury_address is not null`,
    );
    // One million events over the last hour (the retention), spread over every company, each type's payload shaped
    // as the service publishes it (docs/api/events.md "Payloads"), so the backfill serves them as it would real ones.
    const events = () =>
      run(
        'platform_events',
        `insert into platform_events (type, company_id, data, timestamp)
       select ty, 'bench' || lpad(c::text, 7, '0'),
         case ty
           when 'decision' then jsonb_build_object('roundId', 'bround' || e, 'cycle', e / ${n}, 'directive',
             'Grow the treasury: buy the strongest token on dips, stake the rest, keep 20% in USDC.',
             'actionsCount', e % 4, 'decisionHash', '0x' || lpad(to_hex(e), 64, '0'))
           when 'trade' then jsonb_build_object('kind', 'trade', 'tokenSymbol', 'BT' || c,
             'companySlug', 'bench-company-' || c, 'tokenAddress', '0x' || lpad(to_hex(c), 40, '0'),
             'txHash', '0xdd' || lpad(to_hex(e), 62, '0'), 'logIndex', 0, 'blockNumber', 3000000 + e,
             'blockTime', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'side', case when e % 3 = 0 then 'sell' else 'buy' end,
             'amount', (1000000000000000000::numeric * (1 + e % 700))::text, 'usdcAmount', (1000000 * (1 + e % 500))::text,
             'price', '1234', 'trader', '0x' || lpad(to_hex(1 + e % 5000), 40, 'e'), 'venue', 'CURVE')
           when 'score' then jsonb_build_object('platformScore', 71.25, 'previousScore', 70.5, 'rank', 1 + e % ${n})
           else jsonb_build_object('kind', 'snapshot', 'epoch', null, 'date', to_char(current_date, 'YYYY-MM-DD'),
             'companies', ${n})
         end,
         at
       from generate_series(1, ${counts.events}) e
         cross join lateral (select (${sqlArray(EVENT_TYPES)})[1 + e % ${EVENT_TYPES.length}], 1 + e % ${n},
           now() - make_interval(secs => (${counts.events} - e) * 3600.0 / ${counts.events})) x(ty, c, at)`,
        second,
      );
    // A snapshot of every company each day for a year; rank is a permutation of 1..n per day (7919 is prime to
    // 10,000), and overall falls with rank from 100 to 0 as the snapshot job writes it (every company eligible for
    // an epoch's rewards).
    const snapshots = (name: string, first: number, last: number, on: pg.Client) =>
      run(
        name,
        `insert into score_snapshots (snapshot_date, company_id, category, treasury_raw, trading_raw, volume_raw,
         activity_raw, completeness_raw, treasury_score, trading_score, volume_score, activity_score,
         completeness_score, referral_boost, overall, rank, treasury_block)
       select current_date - d, c.id, c.category, 1000000::numeric * (rk % 5000), 1000 * (rk % 97) - 40000,
         5000000::numeric * (rk % 311), rk % 40, (rk % 11) / 11.0,
         round(100 - rk * 100.0 / ${n}, 2), round((rk * 37 % 10000) / 100.0, 2), round((rk * 53 % 10000) / 100.0, 2),
         round((rk * 71 % 10000) / 100.0, 2), round((rk * 89 % 10000) / 100.0, 2), 1.00,
         round(100 - rk * 100.0 / ${n}, 2), rk, 1000000 - d
       from generate_series(${first}, ${last}) d
         cross join companies c
         cross join lateral (select ((c.card_token_id - 1) * 7919 + d * 31) % ${n} + 1) r(rk)`,
        on,
      );
    // Trades of the launched companies over the last day; one in twenty by an agent wallet, whose sales carry the
    // realised PnL and holding period the token indexer records (the trading score's rules read them).
    const trades = () =>
      run(
        'token_trades',
        `insert into token_trades (tx_hash, log_index, company_id, token_address, block_number, block_time, trader,
         side, usdc_amount, token_amount, fee_amount, venue, realized_pnl, held_since, last_buy_at)
       select '0xdd' || lpad(to_hex(t), 62, '0'), 0, c.id, c.token_address, 2000000 + t, at,
         case when agent then '0xcc' || lpad(to_hex(1 + t % ${agentsTotal}), 38, '0')
           else '0xee' || lpad(to_hex(1 + t % 5000), 38, '0') end,
         case when sell then 'sell' else 'buy' end,
         1000000 * (1 + t % 500), 1000000000000000000::numeric * (1 + t % 700), 0,
         case when c.token_status = 'GRADUATED' then 'POOL' else 'CURVE' end,
         case when sell and agent then 1000000 * (t % 200 - 50) end,
         case when sell and agent then at - interval '6 hours' end,
         case when sell and agent then at - make_interval(secs => 600 + t % 7200) end
       from generate_series(1, ${counts.trades}) t
         cross join lateral (select t % 3 = 0, t % 20 = 0,
           now() - make_interval(secs => (${counts.trades} - t) * 86400.0 / ${counts.trades})) x(sell, agent, at)
         join companies c on c.card_token_id = (((t / 4) % ${Math.floor(n / 10) - 1}) + 1) * 10 + t % 4`,
      );
    // Half the snapshot days and the trades on one session, the other half and the events on the other.
    const middle = Math.floor(counts.snapshotDays / 2);
    await Promise.all([
      snapshots('score_snapshots (first half)', 0, middle - 1, client).then(trades),
      snapshots('score_snapshots (second half)', middle, counts.snapshotDays - 1, second).then(events),
    ]);
    // platformScore is the overall score of the latest snapshot, as the snapshot job leaves it.
    await run(
      'platform scores',
      `update companies c set platform_score = s.overall
       from score_snapshots s where s.snapshot_date = current_date and s.company_id = c.id`,
    );
    // The index builds, shared between the two sessions (the biggest table's on one, the others on the other).
    const onSnapshots = indexes.rows.filter((r) => / ON (\S+\.)?score_snapshots /.test(r.def));
    const others = indexes.rows.filter((r) => !onSnapshots.includes(r));
    const build = (rows: typeof indexes.rows) => rows.map((r) => `${r.def};`).join('\n') || 'select 1';
    await Promise.all([
      run('indexes (score_snapshots)', build(onSnapshots)),
      run('indexes (others)', build(others), second),
    ]);
    await client.query('reset session_replication_role');
    // VACUUM as autovacuum would have by now on a live database: statistics, and the visibility map that lets the
    // covering indexes answer from the index alone.
    await run('vacuum analyze', 'vacuum analyze');
    const counted = await client.query(
      `select (select count(*) from companies)::int as companies, (select count(*) from agents)::int as agents,
         (select count(*) from platform_events)::int as platform_events,
         (select count(*) from score_snapshots)::int as score_snapshots,
         (select count(*) from token_trades)::int as token_trades,
         (select count(*) from treasury_observations)::int as treasury_observations`,
    );
    return {
      counts: counted.rows[0] as Record<string, number>,
      seconds,
      totalSeconds: +((performance.now() - started) / 1000).toFixed(1),
    };
  } finally {
    await Promise.all([client.end(), second.end()]);
  }
}
