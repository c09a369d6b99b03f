// The storage one platform event costs in PostgreSQL, for choosing EVENT_BACKFILL_RETENTION_MS (docs/benchmarks.md "Event
// retention"): publishes events shaped as the service publishes them (docs/api/events.md "Payloads") into a scratch
// database, vacuums, and divides the table's whole size (heap, TOAST and its four indexes) by the rows.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/event-storage.ts [--events 200000]
import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rowsOf } from '../src/db/client.ts';
import { type NewPlatformEvent, publishEvents } from '../src/domain/events/store.ts';

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) throw new Error('DATABASE_URL (a PostgreSQL server) is required');
const countArg = process.argv.indexOf('--events');
const total = countArg === -1 ? 200_000 : Number(process.argv[countArg + 1]);

const hex = (bytes: number) =>
  `0x${Array.from({ length: bytes }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('')}`;
const digits = (n: number) => String(Math.floor(Math.random() * 10 ** Math.min(n, 15))).padStart(n, '1');
const companyIds = Array.from({ length: 1000 }, () => createId());

/** One event of each kind the service publishes, with values of realistic length. */
function eventOf(i: number, type: NewPlatformEvent['type']): NewPlatformEvent {
  const companyId = companyIds[i % companyIds.length]!;
  if (type === 'decision') {
    return {
      type,
      companyId,
      data: {
        roundId: createId(),
        cycle: i,
        directive: 'Grow the treasury: buy the strongest token on dips, stake the rest, keep 20% in USDC.',
        actionsCount: 3,
        decisionHash: hex(32),
      },
    };
  }
  if (type === 'score') {
    return { type, companyId, data: { platformScore: 71.25, previousScore: 70.5, rank: (i % 10_000) + 1 } };
  }
  return {
    type: 'trade',
    companyId,
    data: {
      kind: 'trade',
      tokenSymbol: 'ACME',
      companySlug: `company-${i % 10_000}`,
      tokenAddress: hex(20),
      txHash: hex(32),
      logIndex: i % 200,
      blockNumber: 30_000_000 + i,
      blockTime: new Date().toISOString(),
      side: i % 2 ? 'buy' : 'sell',
      amount: digits(22),
      usdcAmount: digits(9),
      price: digits(5),
      trader: hex(20),
      venue: 'CURVE',
    },
  };
}

const name = `aie_event_storage_${Date.now()}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), poolSize: 4 });
try {
  const results: Record<string, { rows: number; bytes: number }> = {};
  for (const mix of ['trade', 'decision', 'score'] as const) {
    await database.db.execute(sql`truncate platform_events`);
    for (let done = 0; done < total; done += 1000) {
      await publishEvents(
        database.db,
        Array.from({ length: Math.min(1000, total - done) }, (_, k) => eventOf(done + k, mix)),
      );
    }
    await database.db.execute(sql`vacuum analyze platform_events`);
    const [row] = rowsOf<{ rows: string; bytes: string }>(
      await database.db.execute(
        sql`select count(*)::text as rows, pg_total_relation_size('platform_events')::text as bytes from platform_events`,
      ),
    );
    results[mix] = { rows: Number(row!.rows), bytes: Number(row!.bytes) };
    console.log(
      `${mix}: ${row!.rows} events, ${(Number(row!.bytes) / 2 ** 20).toFixed(1)} MiB, ${Math.round(Number(row!.bytes) / Number(row!.rows))} bytes an event`,
    );
  }
  console.log(JSON.stringify(results));
} finally {
  await database.close();
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
