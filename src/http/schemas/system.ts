// Schemas of the operational routes: health and chain.
import { Type } from 'typebox';
import { CONTRACT_KEYS } from '../../chain/contracts/addresses.ts';
import { AddressString, internalOk, Nullable } from './common.ts';

export const HealthData = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], {
    description: 'ok: database and chain answer; degraded: the chain does not; down: the database does not',
  }),
  db: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  chain: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  version: Type.String(),
});
export const HealthResponse = internalOk(HealthData);

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
export const ChainResponse = internalOk(ChainData);
