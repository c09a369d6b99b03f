// Staking routes (docs/api/staking.md "Position" and "Stats"): live reads of the
// staking contract, pinned to one block and sent as one JSON-RPC batch (domain/staking/reads.ts), kept per block
// (block-reads.ts): repeated reads within one block make one batch, and a conditional request whose tag still
// matches is answered 304 without a call to the node. Public; the global rate limit applies. A bad wallet answers 400 BAD_REQUEST (the code docs/api/README.md "Errors" gives it, not VALIDATION_ERROR);
// an RPC that does not answer, 503 CHAIN_UNAVAILABLE.

import { ADDRESS_RULE, parseAddress } from '../../address.ts';
import { APY_REFERENCE_STAKE } from '../../domain/staking/apy.ts';
import { readStakingPosition, readStakingStats } from '../../domain/staking/reads.ts';
import { badRequest } from '../../errors.ts';
import { blockReads } from '../block-reads.ts';
import { ok } from '../envelope.ts';
import type { JsonReply } from '../read-cache.ts';
import { internalErrors } from '../schemas/common.ts';
import { StakingPositionResponse, StakingStatsResponse, WalletParams } from '../schemas/staking.ts';
import type { App, RouteOptions } from '../types.ts';

const ECHO_MAX = 50;
const REFERENCE_TOKENS = (APY_REFERENCE_STAKE / 10n ** 18n).toLocaleString('en-US');
const APY_RULE = `Base APY = pool 0's emission a year / max(total effective stake, ${REFERENCE_TOKENS} tokens), in percent with 2 decimals; emission and primary token valued 1:1.`;

function walletOf(raw: string) {
  const parsed = parseAddress(raw);
  if (parsed.ok) return parsed.address;
  const shown = raw.length > ECHO_MAX ? `${raw.slice(0, ECHO_MAX)}...` : raw;
  throw badRequest(`Invalid wallet address "${shown}" (${parsed.reason}); expected ${ADDRESS_RULE}`);
}

export default async function stakingRoutes(app: App, { deps, reads, chainHead }: RouteOptions) {
  // The staking contract alone: no table, so an answer changes only with the block.
  const positions = blockReads(chainHead, reads.route('staking-position', { tables: [] }));
  const stats = blockReads(chainHead, reads.route('staking-stats', { tables: [] }));
  const position = <R>(reply: JsonReply<R>, raw: string) => {
    const wallet = walletOf(raw);
    return positions.send(reply, wallet, async (block) => ok(await readStakingPosition(deps, wallet, block)));
  };

  // attachValidation: the params schema documents the wallet, and walletOf decides, so every bad wallet answers
  // the same 400 BAD_REQUEST rather than an ajv VALIDATION_ERROR.
  app.get(
    '/api/staking/position/:wallet',
    {
      attachValidation: true,
      schema: {
        tags: ['staking'],
        summary: "A wallet's stake, boost, pending emission and APY in pool 0 (the primary token), read on-chain",
        description: `Read at the latest block. tier is the card the staking contract recorded as the wallet's boost (set by refreshBoost(0)), and multiplier the boost in effect (effectiveStake / stakedPrimary, 2 decimals: a card boosts only up to its tier's cap of stake, the rest counts at 1x); a wallet without a recorded card is NONE with multiplier 1. ${APY_RULE} effectiveApy = baseApy * multiplier. 400 BAD_REQUEST for an invalid wallet; 503 CHAIN_UNAVAILABLE when the chain does not answer.`,
        params: WalletParams,
        response: { 200: StakingPositionResponse, ...internalErrors },
      },
    },
    (request, reply) => position(reply, request.params.wallet),
  );

  // Without these, an empty wallet (`/api/staking/position/`), one longer than the router's parameter limit or
  // one with a slash in it would be an unknown route (404), not a bad wallet.
  app.get('/api/staking/position', { schema: { hide: true } }, async () => {
    throw badRequest(`Missing wallet address; expected ${ADDRESS_RULE}`);
  });
  app.get<{ Params: { '*': string } }>('/api/staking/position/*', { schema: { hide: true } }, (request, reply) =>
    position(reply, request.params['*']),
  );

  app.get(
    '/api/staking/stats',
    {
      schema: {
        tags: ['staking'],
        summary: "Pool 0's total effective stake, the emission rate and total, the base APY and the active pools",
        description: `Read at the latest block. ${APY_RULE} poolCount counts pools with allocation points above 0. 503 CHAIN_UNAVAILABLE when the chain does not answer.`,
        response: { 200: StakingStatsResponse, ...internalErrors },
      },
    },
    (_request, reply) => stats.send(reply, '', async (block) => ok(await readStakingStats(deps, block))),
  );
}
