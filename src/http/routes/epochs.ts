// Epoch reward routes: the running epoch read on-chain, a company's claimable rewards, a leaf's proof, the claim
// (creator, wallet-signed; the oracle sends it and the reward mints to the recorded treasury) and the distribution
// (scheduler or admin secret; the scheduler also runs it every hour on its own), and the daily score snapshot on
// demand (same secrets; the scheduler takes it at 00:00 UTC). See docs/api/epochs.md.
import { claimEpochReward } from '../../domain/epochs/claim.ts';
import { distributeEpoch } from '../../domain/epochs/distribute.ts';
import { readClaimable, readCurrentEpochView, readProof } from '../../domain/epochs/queries.ts';
import { takeScoreSnapshot } from '../../domain/scores/snapshot.ts';
import { requireSecret } from '../auth/index.ts';
import { ok } from '../envelope.ts';
import { internalErrors } from '../schemas/common.ts';
import {
  ClaimableParams,
  ClaimableResponse,
  ClaimBody,
  ClaimResponse,
  DistributeResponse,
  EpochResponse,
  ProofParams,
  ProofResponse,
  SnapshotResponse,
} from '../schemas/epochs.ts';
import { registerSignedWrite, type SignedWrite, signedWrite } from '../signed-writes.ts';
import type { ApiDeps, App, RouteOptions } from '../types.ts';

export default async function epochRoutes(app: App, { deps }: RouteOptions) {
  app.get(
    '/api/epochs/current',
    {
      schema: {
        tags: ['epochs'],
        summary: 'The running reward epoch, read from the distributor contract',
        description:
          'Read at the latest block in one JSON-RPC batch. The running epoch cannot be finalized before it ends, so totalScore, totalClaimed and companyCount are 0 and finalized is false; rewardPool is the pool it will be finalized with (EPOCH_REWARD_POOL). 503 CHAIN_UNAVAILABLE when the chain does not answer.',
        response: { 200: EpochResponse, ...internalErrors },
      },
    },
    async () => ok(await readCurrentEpochView(deps)),
  );

  app.get(
    '/api/epochs/claimable/:companyId',
    {
      schema: {
        tags: ['epochs'],
        summary: "A company's rewards in its last 12 finalized epochs, newest first, and the total not yet claimed",
        description:
          'A company without a treasury address answers treasuryAddress null, an empty list, totalClaimable "0" and reason "no_treasury_address". 404 for an unknown company.',
        params: ClaimableParams,
        response: { 200: ClaimableResponse, ...internalErrors },
      },
    },
    async (request) => ok(await readClaimable(deps, request.params.companyId)),
  );

  app.get(
    '/api/epochs/:epoch/proof/:companyId',
    {
      schema: {
        tags: ['epochs'],
        summary: "A company's Merkle leaf and proof in a finalized epoch, so anyone can check or claim it",
        description:
          "The leaf is (epoch, index, companyKey, claimTo, score) of the distributor's StandardMerkleTree; anyone may call the distributor's claim(epoch, index, companyKey, claimTo, score, proof), and the reward always mints to claimTo. 404 when the company is unknown, the epoch is not finalized or the company has no leaf in it.",
        params: ProofParams,
        response: { 200: ProofResponse, ...internalErrors },
      },
    },
    async (request) => ok(await readProof(deps, request.params.epoch, request.params.companyId)),
  );

  for (const route of epochWrites(deps)) registerSignedWrite(app, deps, route, 'internal');

  app.post(
    '/api/cron/epoch-distribute',
    {
      preValidation: requireSecret(deps, ['cron', 'admin']),
      schema: {
        tags: ['epochs'],
        summary: 'Finalize the last ended epoch on-chain, once (the scheduler also runs this every hour)',
        description:
          'Scores the companies with a treasury address over the ended epoch, records the Merkle tree and pending claims, and finalizes the root on-chain in one transaction. Answers finalized, or already_finalized (the chain had it; the records were completed), or already_processed (nothing to do; with reason "no_epoch_ended_yet" while epoch 0 runs). 401 UNAUTHORIZED without a valid CRON_SECRET or ADMIN_SECRET.',
        security: [{ bearerSecret: [] }],
        response: { 200: DistributeResponse, ...internalErrors },
      },
    },
    async () => ok(await distributeEpoch(deps)),
  );

  app.post(
    '/api/cron/score-snapshot',
    {
      preValidation: requireSecret(deps, ['cron', 'admin']),
      schema: {
        tags: ['epochs'],
        summary: "Take today's score snapshot now, unless it is taken (the scheduler takes it at 00:00 UTC)",
        description:
          'Scores every company for today (UTC, by the chain\'s clock) exactly as the daily score-snapshot job does, once per date: a date already taken answers status "exists" and changes nothing; with no company, "empty"; while the indexer has not yet applied the day before, or its last block is not finalized yet, "waiting" with the reason (ask again shortly). Epochs reward the mean of the daily snapshots in their window. 401 UNAUTHORIZED without a valid CRON_SECRET or ADMIN_SECRET.',
        security: [{ bearerSecret: [] }],
        response: { 200: SnapshotResponse, ...internalErrors },
      },
    },
    async () => {
      const result = await takeScoreSnapshot(deps, deps.database.db);
      return ok({ ...result, block: result.block === null ? null : result.block.toString() });
    },
  );
}

/** The reward claim, signed by the card's holder: under /api here and under /api/v1 by v1.ts (signed-writes.ts). */
export function epochWrites(deps: ApiDeps): SignedWrite[] {
  return [
    signedWrite({
      method: 'POST',
      path: '/epochs/claim',
      status: 200,
      tags: ['epochs'],
      summary: "Claim a company's reward of one finalized epoch (creator only); it mints to the recorded treasury",
      description:
        'The oracle key calls the distributor\'s claim with the leaf recorded at finalization; the reward mints to the treasury address recorded then. Claimed before: alreadyClaimed true, txHash null, amount "0". 400 BAD_REQUEST when the epoch is not finalized, the company has no treasury address, or it has no reward in that epoch; 403 for anyone but the creator; 404 for an unknown company.',
      body: ClaimBody,
      response: ClaimResponse,
      run: (request) => claimEpochReward(deps, request.body.companyId, request.body.epochNumber, request.signer),
    }),
  ];
}
