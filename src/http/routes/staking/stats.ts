// GET /api/staking/stats (docs/api/staking.md "Stats"), and its twin GET /api/v1/staking/stats: pool 0's totals and
// base APY, read from the staking contract at the latest block.
import { Type } from 'typebox';
import { readStakingStats } from '../../../domain/staking/reads.ts';
import { route } from '../../route.ts';
import { APY_RULE, Percent, Wei } from './apy.ts';

export const StakingStats = Type.Object({
  totalStakedPrimary: Wei('Total effective stake of pool 0 (stake times multiplier, wei)'),
  emissionPerSecond: Wei('Emission tokens minted per second across all pools (wei)'),
  totalEmissionDistributed: Wei('Total supply of the emission token: all ever harvested'),
  currentBaseApy: Percent('Base APY of pool 0 in percent, 2 decimals'),
  poolCount: Type.Integer({ minimum: 0, description: 'Staking pools with allocation points above 0' }),
});

export default route({
  url: '/api/staking/stats',
  auth: 'none',
  tag: 'staking',
  summary: "Pool 0's total effective stake, the emission rate and total, the base APY and the active pools",
  description: `Read at the latest block. ${APY_RULE} poolCount counts pools with allocation points above 0. 503 CHAIN_UNAVAILABLE when the chain does not answer.`,
  response: StakingStats,
  // The staking contract alone: no table, so an answer changes only with the block.
  cache: { name: 'staking-stats', tables: [], perBlock: true, key: () => '' },
  load: (deps, _input, block) => readStakingStats(deps, block),
  v1: { url: '/staking/stats', description: null },
});
