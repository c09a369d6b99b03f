// Decision routes: a company's rounds and latest budget, running a round now (creator), and verifying a round's
// hash on-chain.
import { IDEMPOTENCY_IN_USE_RETRY_AFTER_S } from '../../constants.ts';
import { getDecision, getDecisions, verifyDecision } from '../../domain/engine/queries.ts';
import { runRoundNow } from '../../domain/engine/runner.ts';
import { AppError } from '../../errors.ts';
import { ok } from '../envelope.ts';
import { recoveryRecorder } from '../plugins/idempotency.ts';
import { internalErrors } from '../schemas/common.ts';
import { CompanyParams } from '../schemas/companies.ts';
import {
  DecisionParams,
  DecisionResponse,
  DecisionsResponse,
  RoundResponse,
  VerificationResponse,
} from '../schemas/decisions.ts';
import { registerSignedWrite, type SignedWrite, signedWrite } from '../signed-writes.ts';
import type { ApiDeps, App, RouteOptions } from '../types.ts';

export default async function decisionRoutes(app: App, { deps }: RouteOptions) {
  app.get(
    '/api/companies/:id/decisions',
    {
      schema: {
        tags: ['decisions'],
        summary: "The company's last 10 decision rounds, most recent first, and each agent's budget in the latest",
        params: CompanyParams,
        response: { 200: DecisionsResponse, ...internalErrors },
      },
    },
    async (request) => ok(await getDecisions(deps, request.params.id)),
  );

  for (const route of decisionWrites(deps, app.log)) registerSignedWrite(app, deps, route, 'internal');

  app.get(
    '/api/decisions/:decisionId',
    {
      schema: {
        tags: ['decisions'],
        summary: 'One decision round by its id, with its company',
        description:
          'The round as in the company list: its directive, each action with its reason and outcome, its phases and hash. 404 for an unknown round.',
        params: DecisionParams,
        response: { 200: DecisionResponse, ...internalErrors },
      },
    },
    async (request) => ok(await getDecision(deps, request.params.decisionId)),
  );

  app.get(
    '/api/decisions/:decisionId/verify',
    {
      schema: {
        tags: ['decisions'],
        summary: "Compare a round's stored hash with the anchor contract and legacy ERC-8004 validation entries",
        params: DecisionParams,
        response: { 200: VerificationResponse, ...internalErrors },
      },
    },
    async (request) => ok(await verifyDecision(deps, request.params.decisionId)),
  );
}

/** A manual decision round, signed by the card's holder: under /api here and under /api/v1 by v1.ts. */
export function decisionWrites(api: ApiDeps, log: App['log']): SignedWrite[] {
  const deps = { ...api, log };
  return [
    signedWrite({
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
    }),
  ];
}
