// The memberships of a company's agent keys in its Roles module (docs/contracts.md "Custody", "Kept in step after the
// setup"): the platform's manage role makes every live agent key a member of the trading and staking roles and takes
// every terminated one out, each change read from the chain first and sent through the outbox once.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Address, TransactionReceipt } from 'viem';
import { isRoleMember, membershipChangeTx, STAKE_ROLE, TRADE_ROLE } from '../../chain/custody.ts';
import { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import type { Deps as DomainDeps } from '../deps.ts';

type SyncDeps = Pick<DomainDeps, 'chain' | 'database' | 'outbox'>;
type CustodyRow = Pick<typeof companies.$inferSelect, 'id' | 'rolesModuleAddress'>;

function requireSuccess(receipt: TransactionReceipt, what: string) {
  if (receipt.status !== 'success') throw new Error(`${what} reverted (${receipt.transactionHash})`);
}

/**
 * Makes the module's memberships follow the company's agents: every agent key not TERMINATED a member of the
 * trading and staking roles, every TERMINATED one a member of neither (its key, stolen or not, can no longer act
 * through the module). An agent goes on once and off once (TERMINATED is final), so each change has a key of its own
 * (`member-on:<agent id>`, `member-off:<agent id>`). A company without custody is left alone.
 */
export async function syncCustodyMembers(deps: SyncDeps, company: CustodyRow): Promise<void> {
  const roles = company.rolesModuleAddress as Address | null;
  if (!roles) return;
  const rows = await deps.database.db
    .select({ id: agents.id, address: agents.onChainAddress, status: agents.status })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), isNotNull(agents.onChainAddress)));
  for (const row of rows) {
    const address = row.address as Address;
    const want = row.status !== 'TERMINATED';
    const [trade, stake] = await Promise.all([
      isRoleMember(deps.chain, roles, TRADE_ROLE, address),
      isRoleMember(deps.chain, roles, STAKE_ROLE, address),
    ]);
    if (trade === want && stake === want) continue;
    const receipt = await deps.outbox.send(`custody:${company.id}:member-${want ? 'on' : 'off'}:${row.id}`, () =>
      membershipChangeTx(roles, address, want),
    );
    requireSuccess(receipt, `the membership change of agent ${row.id}`);
  }
}
