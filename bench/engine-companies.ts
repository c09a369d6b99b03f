// The companies the engine benchmarks run rounds for (bench/engine-scale.ts, bench/engine-schedule.ts): `n`
// companies of seven active agents, one of each role, holding the seven wallets of the container's first indexes (the
// reads a round makes of each wallet are real; which address a company's agent asks about does not change them).
import { sql } from 'drizzle-orm';
import { devAccount } from '../src/chain/client.ts';
import { AGENT_ROLES } from '../src/constants.ts';
import type { createContainer } from '../src/container.ts';

/** Seeds `n` companies (ids `${prefix}1..n`) and their agents straight into the database, then analyzes it. */
export async function seedEngineCompanies(
  container: Awaited<ReturnType<typeof createContainer>>,
  n: number,
  prefix: string,
): Promise<void> {
  const db = container.database.db;
  const creator = devAccount(1).address;
  const wallets = await Promise.all(AGENT_ROLES.map((_, i) => container.wallets.addressOf(i)));
  await db.execute(sql`
    insert into companies (id, slug, name, category, creator_address, card_token_id, treasury_address)
    select ${prefix} || i, ${prefix} || '-co-' || i, 'Bench Co ' || i, 'AI_TOKENS', ${creator}, i, ${creator}
    from generate_series(1, ${n}) i`);
  const roles = `array[${AGENT_ROLES.map((r) => `'${r}'`).join(',')}]`;
  const addresses = `array[${wallets.map((w) => `'${w}'`).join(',')}]`;
  await db.execute(sql`
    insert into agents (id, company_id, name, role, status, creator_address, wallet_index, on_chain_address,
      persona, skills, strategy)
    select ${prefix} || '-agent-' || a, ${prefix} || (1 + (a - 1) / 7), 'Agent ' || a, (${sql.raw(roles)})[1 + (a - 1) % 7],
      'ACTIVE', ${creator}, a, (${sql.raw(addresses)})[1 + (a - 1) % 7],
      jsonb_build_object('role', (${sql.raw(roles)})[1 + (a - 1) % 7], 'description', 'engine bench agent'),
      '["research"]'::jsonb, '{"type":"momentum","preset":"BALANCED"}'::jsonb
    from generate_series(1, ${n * 7}) a`);
  await db.execute(sql`select setval('agent_wallet_index_seq', ${n * 7})`);
  await db.execute(sql`analyze`);
}
