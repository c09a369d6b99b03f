// GET /api/chain (docs/decisions.md "Service"): the chain the platform runs on, its clock, its contract addresses
// and who holds their powers.
import { Type } from 'typebox';
import { createChainRoles } from '../../../chain/chain-roles.ts';
import { CONTRACT_KEYS } from '../../../chain/contracts/addresses.ts';
import { chainDateForReads } from '../../../chain/time.ts';
import { perApp, route } from '../../route.ts';
import { AddressString, Nullable } from '../../schemas/common.ts';

export const ChainData = Type.Object({
  chainId: Type.Integer(),
  now: Type.String({
    format: 'date-time',
    description:
      "The chain's clock: the time its next block will carry (never earlier than its latest block's). Every time the service stamps (trades, decision rounds, agents' actions) is on this clock, which can run ahead of or behind the wall clock (the local chain after its clock was moved); a client measures how long ago something happened against it. When the node does not answer, the last time it did (or the server's clock).",
  }),
  rpcUrl: Type.Optional(Type.String({ description: 'Present only for the local development chain' })),
  explorerUrl: Nullable(
    Type.String({ format: 'uri', description: "The chain's block explorer; null when it has none (the local chain)" }),
  ),
  contracts: Type.Object(
    Object.fromEntries(CONTRACT_KEYS.map((k) => [k, Type.Optional(AddressString)])) as Record<
      (typeof CONTRACT_KEYS)[number],
      ReturnType<typeof Type.Optional<typeof AddressString>>
    >,
  ),
  roles: Type.Object(
    {
      service: AddressString,
      oracle: Nullable(AddressString),
      owner: Nullable(AddressString),
      ownerDelaySeconds: Nullable(Type.Integer({ minimum: 0 })),
    },
    {
      description:
        "Who holds the contracts' powers, read from the chain: `service` is the address the service sends from (the platform's hot key: company deployments, anchoring, launches); `oracle` finalizes reward epochs within the distributor's cap; `owner` owns every contract and the primary token's admin role (the platform's timelock, whose proposer is the operator's multisig), and `ownerDelaySeconds` is how long any change it makes waits (null without a timelock). `npm run cli -- keys` lists every role.",
    },
  ),
});

/** The roles' reader of each app's dependencies, kept for ROLES_CACHE_MS (chain-roles.ts). */
const rolesReader = perApp((deps) => createChainRoles(deps.chain));

export default route({
  url: '/api/chain',
  auth: 'none',
  tag: 'system',
  summary: 'The chain the platform runs on and its contract addresses',
  response: ChainData,
  load: async (deps) => {
    const { chain } = deps;
    // CHAIN_RPC_URL may carry a provider key: a real chain's RPC is named only as PUBLIC_RPC_URL says.
    const rpcUrl = deps.config.publicRpcUrl ?? (chain.local ? chain.rpcUrl : undefined);
    return {
      chainId: chain.chainId,
      now: (await chainDateForReads(chain.publicClient)).toISOString(),
      ...(rpcUrl ? { rpcUrl } : {}),
      explorerUrl: chain.explorerUrl,
      contracts: chain.contracts,
      roles: await rolesReader(deps)(),
    };
  },
});
