// POST /api/companies/{id}/decisions/run (docs/api/decisions.md), and its twin under /api/v1 (signed-writes.ts): a
// manual decision round, signed by the card's holder.
import { IDEMPOTENCY_IN_USE_RETRY_AFTER_S } from '../../../constants.ts';
import { getDecision } from '../../../domain/engine/queries.ts';
import { runRoundNow } from '../../../domain/engine/runner.ts';
import { AppError } from '../../../errors.ts';
import { recoveryRecorder } from '../../plugins/idempotency.ts';
import { internalOk } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { type SignedWrite, signedWrite } from '../../signed-writes.ts';
import type { ApiDeps, App } from '../../types.ts';
import { DecisionRound } from './round.ts';

export const RoundResponse = internalOk(DecisionRound);

export function runWrite(api: ApiDeps, log: App['log']): SignedWrite {
  const deps = { ...api, log };
  return signedWrite({
    method: 'POST',
    path: '/companies/:id/decisions/run',
    status: 201,
    tags: ['decisions'],
    summary: 'Run one decision round now (creator only); answers the finished round',
    description:
      'Runs the seven phases and answers 201 with the round, COMPLETE or FAILED (with its phase and error). 409 while another round of the company runs; 400 when the company has no active agent.',
    params: CompanyParams,
    response: RoundResponse,
    // A retry of a keyed run that may have started answers the round it started, never a second round
    // (src/http/plugins/idempotency.ts); while that round is still RUNNING, 409 IDEMPOTENCY_KEY_IN_USE.
    recover: async ({ id }) => {
      const { round } = await getDecision(deps, id);
      if (round.status === 'RUNNING') {
        throw new AppError(
          'IDEMPOTENCY_KEY_IN_USE',
          `The round ${id} this request started is still running; retry after ${IDEMPOTENCY_IN_USE_RETRY_AFTER_S} s to get it`,
        );
      }
      return round;
    },
    run: (request) => runRoundNow(deps, request.params.id, request.signer, recoveryRecorder(request, 'round')),
  });
}
