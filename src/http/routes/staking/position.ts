// GET /api/staking/position/{wallet} (docs/api/staking.md "Position"), and its twin
// GET /api/v1/staking/position/{wallet}: a wallet's stake, boost, pending emission and APY in pool 0, read from the
// staking contract at the latest block. A bad wallet answers 400 BAD_REQUEST (the code docs/api/README.md "Errors"
// gives it, not VALIDATION_ERROR): the route parses it itself.
import { Type } from 'typebox';
import { ADDRESS_RULE, parseAddress } from '../../../address.ts';
import { CARD_TIERS, NO_CARD_MULTIPLIER } from '../../../constants.ts';
import { readStakingPosition } from '../../../domain/staking/reads.ts';
import { badRequest } from '../../../errors.ts';
import { route } from '../../route.ts';
import { AddressString, StringEnum, WalletParams } from '../../schemas/common.ts';
import { APY_RULE, Percent, Wei } from './apy.ts';

const STAKING_TIERS = [...CARD_TIERS.map((t) => t.name), 'NONE'] as const;
const MULTIPLIER_MAX = Math.max(...CARD_TIERS.map((t) => t.multiplier));
const ECHO_MAX = 50;

export const StakingPosition = Type.Object({
  wallet: AddressString,
  stakedPrimary: Wei('Primary tokens staked in pool 0 (wei)'),
  effectiveStake: Wei(
    "stakedPrimary with the card's multiplier applied up to the tier's cap of stake, the rest at 1x (wei)",
  ),
  pendingEmission: Wei('Unclaimed emission tokens, what harvest(0) would pay now (wei)'),
  tier: StringEnum(STAKING_TIERS, {
    description: "Tier of the access card the staking contract recorded as this wallet's boost; NONE without one",
  }),
  multiplier: Type.Number({
    minimum: NO_CARD_MULTIPLIER,
    maximum: MULTIPLIER_MAX,
    description:
      "Multiplier in effect: effectiveStake / stakedPrimary, rounded down to 2 decimals. A card's boost (5 Black, 3 Gold, 2 Silver) applies up to its tier's cap of stake (Black 1,000,000, Gold 250,000, Silver 100,000 primary tokens by default), so a larger stake has a multiplier between 1 and the tier's. Without a stake, the recorded card's multiplier; 1 without a card",
  }),
  baseApy: Percent('Base APY of pool 0 in percent, 2 decimals'),
  effectiveApy: Percent('baseApy times multiplier (the multiplier in effect), in percent'),
});

/** The checksummed wallet of a path parameter, or 400 BAD_REQUEST naming what is wrong with it. */
export function walletOf(raw: string) {
  const parsed = parseAddress(raw);
  if (parsed.ok) return parsed.address;
  const shown = raw.length > ECHO_MAX ? `${raw.slice(0, ECHO_MAX)}...` : raw;
  throw badRequest(`Invalid wallet address "${shown}" (${parsed.reason}); expected ${ADDRESS_RULE}`);
}

export default route({
  url: '/api/staking/position/:wallet',
  auth: 'none',
  tag: 'staking',
  summary: "A wallet's stake, boost, pending emission and APY in pool 0 (the primary token), read on-chain",
  description: `Read at the latest block. tier is the card the staking contract recorded as the wallet's boost (set by refreshBoost(0)), and multiplier the boost in effect (effectiveStake / stakedPrimary, 2 decimals: a card boosts only up to its tier's cap of stake, the rest counts at 1x); a wallet without a recorded card is NONE with multiplier 1. ${APY_RULE} effectiveApy = baseApy * multiplier. 400 BAD_REQUEST for an invalid wallet; 503 CHAIN_UNAVAILABLE when the chain does not answer.`,
  // The params schema documents the wallet, and walletOf decides, so every bad wallet answers the same 400.
  params: WalletParams,
  check: ({ params }) => void walletOf(params.wallet),
  response: StakingPosition,
  // The staking contract alone: no table, so an answer changes only with the block.
  cache: { name: 'staking-position', tables: [], perBlock: true, key: ({ params }) => walletOf(params.wallet) },
  load: (deps, { params }, block) => readStakingPosition(deps, walletOf(params.wallet), block),
  v1: {
    url: '/staking/position/:wallet',
    params: Type.Object({ wallet: { ...AddressString, description: 'A wallet address, any case' } }),
    description: null,
  },
});
