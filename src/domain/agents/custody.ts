// The memberships of a company's agent keys in its Roles module (docs/contracts.md "Custody", "Kept in step after the
// setup"): the platform's manage role makes every live agent key a member of the trading and staking roles and takes
// every terminated one out, each change read from the chain first and sent through the outbox once. Also what the
// module's other changes (domain/companies/custody.ts, the limits) share with it: the manage role's check, and the
// sentence a company whose module the platform may not change gets instead of a change.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Address, TransactionReceipt } from 'viem';
import { isRoleMember, membershipChangeTx } from '../../chain/custody-roles.ts';
import { MANAGE_ROLE, STAKE_ROLE, TRADE_ROLE } from '../../chain/custody-scopes.ts';
import { agents } from '../../db/schema/agents.ts';
import type { companies } from '../../db/schema/companies.ts';
import { AppError } from '../../errors.ts';
import type { Deps as DomainDeps } from '../deps.ts';

export type SyncDeps = Pick<DomainDeps, 'chain' | 'database' | 'outbox'>;
export type CustodyRow = Pick<typeof companies.$inferSelect, 'id' | 'rolesModuleAddress'>;

export function requireSuccess(receipt: TransactionReceipt, what: string) {
  if (receipt.status !== 'success') throw new Error(`${what} reverted (${receipt.transactionHash})`);
}

/**
 * 409 CONFLICT: the company's module needs a change the platform may not make, because the platform's key is not a
 * member of the module's manage role (custody set up before that role existed, or the card's holder took it away).
 * The platform's own records are changed already (the engine follows them); the module follows once the holder gives
 * the role back (the reconcile job, or the same request again, finishes the change) or makes the change themselves.
 */
export class NoManageRole extends AppError {
  constructor(company: string, roles: Address, platform: Address, what: string, how: string) {
    super(
      'CONFLICT',
      `Company ${company}: ${what}, and the platform cannot change its Roles module ${roles}: the platform's key ${platform} is not a member of the module's manage role (the custody was set up before that role existed, or the card's holder took the role away). The platform's own records are changed and its engine follows them. On-chain, the card's holder either makes the change with a Safe transaction of their own (${how}), or gives the manage role back (docs/contracts.md "Kept in step after the setup"), after which the platform finishes the change within a minute.`,
    );
    this.name = 'NoManageRole';
  }
}

/** Whether the platform's key may change the module `roles` through the manage role. */
export async function platformManages(deps: Pick<SyncDeps, 'chain'>, roles: Address): Promise<boolean> {
  return isRoleMember(deps.chain, roles, MANAGE_ROLE, deps.chain.platform.account.address);
}

/** NoManageRole (409) unless the platform holds the manage role of the company's module. */
export async function requireManageRole(
  deps: Pick<SyncDeps, 'chain'>,
  company: { id: string },
  roles: Address,
  what: string,
  how: string,
): Promise<void> {
  if (await platformManages(deps, roles)) return;
  throw new NoManageRole(company.id, roles, deps.chain.platform.account.address, what, how);
}

/**
 * Makes the module's memberships follow the company's agents: every agent key not TERMINATED a member of the
 * trading and staking roles, every TERMINATED one a member of neither (its key, stolen or not, can no longer act
 * through the module). An agent goes on once and off once (TERMINATED is final), so each change has a key of its own
 * (`member-on:<agent id>`, `member-off:<agent id>`). A company without custody is left alone; one whose module the
 * platform may not change gets NoManageRole (409) when a change is due, and nothing is sent.
 */
export async function syncCustodyMembers(deps: SyncDeps, company: CustodyRow): Promise<void> {
  const roles = company.rolesModuleAddress as Address | null;
  if (!roles) return;
  const rows = await deps.database.db
    .select({ id: agents.id, address: agents.onChainAddress, status: agents.status })
    .from(agents)
    .where(and(eq(agents.companyId, company.id), isNotNull(agents.onChainAddress)));
  const due = (
    await Promise.all(
      rows.map(async (row) => {
        const address = row.address as Address;
        const want = row.status !== 'TERMINATED';
        const [trade, stake] = await Promise.all([
          isRoleMember(deps.chain, roles, TRADE_ROLE, address),
          isRoleMember(deps.chain, roles, STAKE_ROLE, address),
        ]);
        return trade === want && stake === want ? [] : [{ id: row.id, address, want }];
      }),
    )
  ).flat();
  if (due.length === 0) return;
  const off = due.filter((d) => !d.want).map((d) => d.address);
  const on = due.filter((d) => d.want).map((d) => d.address);
  await requireManageRole(
    deps,
    company,
    roles,
    [
      ...(off.length > 0
        ? [`the keys of its terminated agents ${off.join(', ')} are still members of its trading and staking roles`]
        : []),
      ...(on.length > 0
        ? [`the keys of its agents ${on.join(', ')} are not members of its trading and staking roles yet`]
        : []),
    ].join('; '),
    `assignRoles(key, [trade, stake], [false, false]) on the module for a terminated agent's key, [true, true] for a live one`,
  );
  for (const { id, address, want } of due) {
    const receipt = await deps.outbox.send(`custody:${company.id}:member-${want ? 'on' : 'off'}:${id}`, () =>
      membershipChangeTx(roles, address, want),
    );
    requireSuccess(receipt, `the membership change of agent ${id}`);
  }
}
