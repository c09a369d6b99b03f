// Schemas of the epoch routes (docs/api/epochs.md: GET /api/epochs/current,
// GET /api/epochs/claimable/{companyId}, POST /api/epochs/claim, POST /api/cron/epoch-distribute; docs/api/epochs.md's
// GET /api/epochs/{epoch}/proof/{companyId}).
import { Type } from 'typebox';
import { AddressString, internalOk, Nullable, WeiString } from './common.ts';

/** Epoch numbers are stored as PostgreSQL integers; a week each, that is 41 million years. */
export const EPOCH_NUMBER_MAX = 2_147_483_647;

const EpochNumber = (description: string) => Type.Integer({ minimum: 0, maximum: EPOCH_NUMBER_MAX, description });
const Bytes32 = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: '0x followed by 64 hex characters' });
const TxHash = Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description: 'Transaction hash' });
const CompanyId = Type.String({ minLength: 1, maxLength: 64, description: 'Company id (CUID) or slug' });

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
export const EpochResponse = internalOk(Epoch);

export const ClaimableParams = Type.Object({ companyId: CompanyId });

const ClaimableEntry = Type.Object({
  epochNumber: Type.Integer({ minimum: 0 }),
  amount: WeiString,
  alreadyClaimed: Type.Boolean(),
});

export const ClaimableResponse = internalOk(
  Type.Union([
    Type.Object({
      companyId: Type.String(),
      treasuryAddress: AddressString,
      claimable: Type.Array(ClaimableEntry, {
        description: 'The last 12 finalized epochs with a reward, newest first',
      }),
      totalClaimable: WeiString,
    }),
    Type.Object({
      companyId: Type.String(),
      treasuryAddress: Type.Null(),
      claimable: Type.Array(ClaimableEntry, { maxItems: 0 }),
      totalClaimable: Type.Literal('0'),
      reason: Type.Literal('no_treasury_address'),
    }),
  ]),
);

export const ClaimBody = Type.Object(
  {
    companyId: Type.String({ minLength: 1, maxLength: 64, description: 'The company id' }),
    epochNumber: EpochNumber('A finalized epoch'),
  },
  { additionalProperties: false },
);

export const ClaimResponse = internalOk(
  Type.Object({
    success: Type.Boolean(),
    alreadyClaimed: Type.Boolean(),
    txHash: Nullable(TxHash),
    amount: WeiString,
    epoch: Type.Integer({ minimum: 0 }),
  }),
);

export const ProofParams = Type.Object({
  epoch: EpochNumber('A finalized epoch'),
  companyId: CompanyId,
});

export const ProofResponse = internalOk(
  Type.Object({
    epoch: Type.Integer({ minimum: 0 }),
    companyId: Type.String(),
    leaf: Type.Object({
      index: Type.Integer({ minimum: 0, description: "The leaf's bit in the distributor's claimed bitmap" }),
      companyKey: Bytes32,
      claimTo: AddressString,
      score: WeiString,
      amount: WeiString,
    }),
    proof: Type.Array(Bytes32),
    root: Bytes32,
    claimed: Type.Boolean({ description: 'Whether the platform recorded the claim as paid' }),
  }),
);

export const DistributeResponse = internalOk(
  Type.Union([
    Type.Object({
      epoch: Type.Integer({ minimum: 0 }),
      participantCount: Type.Integer({ minimum: 0 }),
      txHash: TxHash,
      status: Type.Literal('finalized'),
    }),
    Type.Object({ epoch: Type.Integer({ minimum: 0 }), status: Type.Literal('already_finalized') }),
    Type.Object({
      epoch: Type.Integer({ minimum: 0 }),
      status: Type.Literal('already_processed'),
      reason: Type.Optional(
        Type.Literal('no_epoch_ended_yet', { description: 'Epoch 0 is running: no epoch has ended yet' }),
      ),
    }),
    Type.Object({
      epoch: Type.Integer({ minimum: 0 }),
      status: Type.Literal('waiting', {
        description:
          "The epoch ended, but its window's last date is the chain's today and has no score snapshot yet (taken once the previous day is indexed and finalized); nothing was recorded: ask again shortly",
      }),
      reason: Type.String({ description: 'Why, in words' }),
    }),
  ]),
);

export const SnapshotResponse = internalOk(
  Type.Object({
    date: Type.String({ format: 'date', description: "The UTC date of the snapshot (today, by the chain's clock)" }),
    status: Type.Union(
      [Type.Literal('taken'), Type.Literal('exists'), Type.Literal('empty'), Type.Literal('waiting')],
      {
        description:
          "taken: written now; exists: the date was already taken; empty: no company to rank; waiting: the chain's day has ended but the indexer has not applied its last blocks yet, or they are not finalized yet (waitingFor names the streams, reason says why; ask again shortly)",
      },
    ),
    companies: Type.Integer({ minimum: 0, description: 'Companies in the snapshot written now' }),
    changed: Type.Integer({ minimum: 0, description: 'Companies whose platformScore changed (one score event each)' }),
    block: Nullable(Type.String({ pattern: '^[0-9]+$', description: "The chain's latest block when it was taken" })),
    waitingFor: Type.Optional(
      Type.Array(Type.String(), {
        description: "While waiting: the indexer streams that have not applied, or not finalized, the day's last block",
      }),
    ),
    reason: Type.Optional(
      Type.String({
        description:
          'While waiting: why, one sentence per stream, e.g. "company-tokens: applied the day, but its last block is not finalized yet (finalized up to block 108)"',
      }),
    ),
  }),
);
