// Schemas of the staking routes: the wallet path parameter, the staking position and the staking stats.
import { Type } from 'typebox';
import { ADDRESS_FORMAT, ADDRESS_PATTERN } from '../../address.ts';
import { CARD_TIERS, NO_CARD_MULTIPLIER } from '../../constants.ts';
import { AddressString, internalOk, StringEnum } from './common.ts';

export const STAKING_TIERS = [...CARD_TIERS.map((t) => t.name), 'NONE'] as const;
const MULTIPLIER_MAX = Math.max(...CARD_TIERS.map((t) => t.multiplier));

/**
 * The pattern documents the accepted form; the route itself decides with `parseAddress` (form, then checksum) so
 * that every bad wallet answers 400 BAD_REQUEST, as docs/api/README.md "Errors" says, not an ajv VALIDATION_ERROR.
 */
export const WalletParams = Type.Object({
  wallet: Type.String({
    pattern: ADDRESS_PATTERN.source,
    format: ADDRESS_FORMAT,
    description:
      'Wallet address: 0x followed by 40 hex characters, all lowercase, all uppercase or EIP-55 checksummed (mixed case with a wrong checksum is refused)',
    examples: ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'],
  }),
});

const Percent = (description: string) => Type.Number({ minimum: 0, description });
const Wei = (description: string) => Type.String({ pattern: '^[0-9]+$', description });

export const StakingPosition = Type.Object({
  wallet: AddressString,
  stakedPrimary: Wei('Primary tokens staked in pool 0 (wei)'),
  effectiveStake: Wei('stakedPrimary times the recorded multiplier (wei)'),
  pendingEmission: Wei('Unclaimed emission tokens, what harvest(0) would pay now (wei)'),
  tier: StringEnum(STAKING_TIERS, {
    description: "Tier of the access card the staking contract recorded as this wallet's boost; NONE without one",
  }),
  multiplier: Type.Integer({
    minimum: NO_CARD_MULTIPLIER,
    maximum: MULTIPLIER_MAX,
    description: 'Recorded boost: 5 (Black), 3 (Gold), 2 (Silver), 1 (none)',
  }),
  baseApy: Percent('Base APY of pool 0 in percent, 2 decimals'),
  effectiveApy: Percent('baseApy times multiplier, in percent'),
});
export const StakingPositionResponse = internalOk(StakingPosition);

export const StakingStats = Type.Object({
  totalStakedPrimary: Wei('Total effective stake of pool 0 (stake times multiplier, wei)'),
  emissionPerSecond: Wei('Emission tokens minted per second across all pools (wei)'),
  totalEmissionDistributed: Wei('Total supply of the emission token: all ever harvested'),
  currentBaseApy: Percent('Base APY of pool 0 in percent, 2 decimals'),
  poolCount: Type.Integer({ minimum: 0, description: 'Staking pools with allocation points above 0' }),
});
export const StakingStatsResponse = internalOk(StakingStats);
