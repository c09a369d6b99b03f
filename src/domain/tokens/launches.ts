// A company token's moves between phases, written to the database from the chain's logs: its launch (PRE_PUBLIC ->
// BONDING, the company PUBLIC) and its graduation to a v4 pool (BONDING -> GRADUATED), each announced once as a
// `trade` event. The indexer and the launch route both apply launches; whichever comes first moves the company.
import { sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { COMPANY_TOKEN_SUPPLY, OPENING_VIRTUAL_TOKENS } from '../../chain/contracts/launcher.ts';
import type { Tx } from '../../db/client.ts';
import { markTokensGraduated, markTokensLaunched } from '../companies/store.ts';
import { publishEvents } from '../events/store.ts';
import { unannounced } from './announced.ts';
import { curveSpot } from './prices.ts';
import { type GraduationRecord, type LaunchRecord, tradeEventBase } from './records.ts';

/**
 * PRE_PUBLIC -> BONDING for each launched token whose launch was requested here (matched by its CREATE2 address),
 * and the company PUBLIC, with a `trade` event of kind `launch` for each company moved (only the first to apply a
 * launch moves it: the indexer and the launch request never announce it twice, nor does a reorg's replay of a block
 * that stayed on the chain). Returns the ids of the companies moved.
 */
export async function applyLaunches(tx: Tx, launches: readonly LaunchRecord[]): Promise<string[]> {
  if (launches.length === 0) return [];
  const values = sql.join(
    launches.map((l) => {
      // Until its first trade, a token's price is the curve's opening one.
      const opening = curveSpot(l.graduationThreshold / 3n, OPENING_VIRTUAL_TOKENS, COMPANY_TOKEN_SUPPLY);
      return sql`(${getAddress(l.token)}::text, ${l.txHash}::text, ${l.blockTime.toISOString()}::timestamptz,
          ${l.blockNumber}::bigint, ${opening.price}::numeric, ${opening.marketCap}::numeric)`;
    }),
    sql`, `,
  );
  const rows = await markTokensLaunched(tx, values);
  const byToken = new Map(launches.map((l) => [getAddress(l.token), l]));
  await publishEvents(
    tx,
    await unannounced(
      tx,
      rows.map((company) => ({
        type: 'trade' as const,
        companyId: company.id,
        data: { kind: 'launch', ...tradeEventBase(company, byToken.get(getAddress(company.token))!) },
      })),
    ),
  );
  return rows.map((r) => r.id);
}

/** BONDING -> GRADUATED with the pool id and the time, and a `trade` event of kind `graduation` for each. */
export async function applyGraduations(tx: Tx, graduations: readonly GraduationRecord[]): Promise<string[]> {
  if (graduations.length === 0) return [];
  const values = sql.join(
    graduations.map(
      (g) => sql`(${getAddress(g.token)}::text, ${g.poolId}::text, ${g.blockTime.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  );
  const rows = await markTokensGraduated(tx, values);
  const byToken = new Map(graduations.map((g) => [getAddress(g.token), g]));
  await publishEvents(
    tx,
    await unannounced(
      tx,
      rows.map((company) => {
        const graduation = byToken.get(getAddress(company.token))!;
        return {
          type: 'trade' as const,
          companyId: company.id,
          data: { kind: 'graduation', ...tradeEventBase(company, graduation), poolId: graduation.poolId },
        };
      }),
    ),
  );
  return rows.map((r) => r.id);
}
