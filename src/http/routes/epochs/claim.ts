// POST /api/epochs/claim (docs/api/epochs.md), and its twin POST /api/v1/epochs/claim: the reward claim, signed by the
// card's holder; the oracle sends it and the reward mints to the recorded treasury.
import { Type } from 'typebox';
import { claimEpochReward } from '../../../domain/epochs/claim.ts';
import { route } from '../../route.ts';
import { Nullable, WeiString } from '../../schemas/common.ts';
import { EpochNumber, TxHash } from './shared.ts';

export const ClaimBody = Type.Object(
  {
    companyId: Type.String({ minLength: 1, maxLength: 64, description: 'The company id' }),
    epochNumber: EpochNumber('A finalized epoch'),
  },
  { additionalProperties: false },
);

export const Claim = Type.Object({
  success: Type.Boolean(),
  alreadyClaimed: Type.Boolean(),
  txHash: Nullable(TxHash),
  amount: WeiString,
  epoch: Type.Integer({ minimum: 0 }),
});

export default route({
  method: 'POST',
  url: '/api/epochs/claim',
  auth: 'wallet',
  tag: 'epochs',
  summary: "Claim a company's reward of one finalized epoch (creator only); it mints to the recorded treasury",
  description:
    'The oracle key calls the distributor\'s claim with the leaf recorded at finalization; the reward mints to the treasury address recorded then. Claimed before: alreadyClaimed true, txHash null, amount "0". 400 BAD_REQUEST when the epoch is not finalized, the company has no treasury address, or it has no reward in that epoch; 403 for anyone but the creator; 404 for an unknown company.',
  body: ClaimBody,
  response: Claim,
  load: (deps, { body, signer }) => claimEpochReward(deps, body.companyId, body.epochNumber, signer),
  v1: { url: '/epochs/claim' },
});
