// POST /api/cron/epoch-distribute (docs/api/epochs.md): finalizes the last ended epoch on demand, with the scheduler's
// or the admin's secret (the scheduler also runs it every hour on its own).
import { Type } from 'typebox';
import { distributeEpoch } from '../../../domain/epochs/distribute.ts';
import { route } from '../../route.ts';
import { TxHash } from './shared.ts';

export const Distribution = Type.Union([
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
]);

export default route({
  method: 'POST',
  url: '/api/cron/epoch-distribute',
  auth: 'cronSecret',
  tag: 'epochs',
  summary: 'Finalize the last ended epoch on-chain, once (the scheduler also runs this every hour)',
  description:
    'Scores the companies with a treasury address over the ended epoch, records the Merkle tree and pending claims, and finalizes the root on-chain in one transaction. Answers finalized, or already_finalized (the chain had it; the records were completed), or already_processed (nothing to do; with reason "no_epoch_ended_yet" while epoch 0 runs). 401 UNAUTHORIZED without a valid CRON_SECRET or ADMIN_SECRET.',
  response: Distribution,
  load: (deps) => distributeEpoch(deps),
});
