// GET /api/epochs/current (docs/api/epochs.md), and its twin GET /api/v1/epochs/current: the running reward epoch,
// read from the distributor contract.
import { Type } from 'typebox';
import { readCurrentEpochView } from '../../../domain/epochs/queries.ts';
import { route } from '../../route.ts';

export const Epoch = Type.Object({
  epochNumber: Type.Integer({ minimum: 0, description: "The distributor's currentEpoch()" }),
  startTime: Type.Integer({ description: 'First second of the epoch (epoch seconds)' }),
  endTime: Type.Integer({ description: 'First second after the epoch (epoch seconds)' }),
  rewardPool: Type.String({
    pattern: '^[0-9]+$',
    description: 'Primary tokens (wei) the epoch is finalized with (EPOCH_REWARD_POOL)',
  }),
  totalScore: Type.String({ pattern: '^[0-9]+$', description: 'Sum of company scores; 0 until finalized' }),
  totalClaimed: Type.String({ pattern: '^[0-9]+$', description: 'Wei claimed; 0 until finalized' }),
  companyCount: Type.Integer({ minimum: 0, description: 'Leaves of the finalized tree; 0 until finalized' }),
  finalized: Type.Boolean(),
  epochDuration: Type.Integer({ minimum: 1, description: 'Seconds' }),
  nextEpochIn: Type.Integer({ minimum: 0, description: "Seconds from the latest block's time to endTime" }),
});

export default route({
  url: '/api/epochs/current',
  auth: 'none',
  tag: 'epochs',
  summary: 'The running reward epoch, read from the distributor contract',
  description:
    'Read at the latest block in one JSON-RPC batch. The running epoch cannot be finalized before it ends, so totalScore, totalClaimed and companyCount are 0 and finalized is false; rewardPool is the pool it will be finalized with (EPOCH_REWARD_POOL). 503 CHAIN_UNAVAILABLE when the chain does not answer.',
  response: Epoch,
  load: (deps) => readCurrentEpochView(deps),
  v1: { url: '/epochs/current', description: null },
});
