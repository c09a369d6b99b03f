// POST /api/companies/{id}/decisions/run (docs/api/decisions.md), and its twin
// POST /api/v1/companies/{slug}/decisions/run: a manual decision round, signed by the card's holder.
import { IDEMPOTENCY_IN_USE_RETRY_AFTER_S } from '../../../constants.ts';
import { getDecision } from '../../../domain/engine/queries.ts';
import { runRoundNow } from '../../../domain/engine/runner.ts';
import { AppError } from '../../../errors.ts';
import { route, slugTwin } from '../../route.ts';
import { CompanyParams } from '../../schemas/companies.ts';
import { DecisionRound } from './round.ts';

export default route({
  method: 'POST',
  url: '/api/companies/:id/decisions/run',
  auth: 'wallet',
  tag: 'decisions',
  summary: 'Run one decision round now (creator only); answers the finished round',
  description:
    'Runs the seven phases and answers 201 with the round, COMPLETE or FAILED (with its phase and error). 409 while another round of the company runs; 400 when the company has no active agent.',
  params: CompanyParams,
  status: 201,
  response: DecisionRound,
  // A retry of a keyed run that may have started answers the round it started, never a second round
  // (src/http/plugins/idempotency.ts); while that round is still RUNNING, 409 IDEMPOTENCY_KEY_IN_USE.
  recover: {
    kind: 'round',
    answer: async (deps, { id }) => {
      const { round } = await getDecision(deps, id);
      if (round.status === 'RUNNING') {
        throw new AppError(
          'IDEMPOTENCY_KEY_IN_USE',
          `The round ${id} this request started is still running; retry after ${IDEMPOTENCY_IN_USE_RETRY_AFTER_S} s to get it`,
        );
      }
      return round;
    },
  },
  load: (deps, { params, signer, record }) => runRoundNow(deps, params.id, signer, record),
  v1: slugTwin('/companies/:slug/decisions/run', CompanyParams),
});
