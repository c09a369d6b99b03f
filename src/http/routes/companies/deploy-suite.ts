// POST /api/companies/{id}/deploy-suite (docs/api/companies.md "deploy-suite"), and its twin under /api/v1: hires the
// seven C-suite agents (missing roles only) and runs their identity pipeline, signed by the card's holder.
import { Type } from 'typebox';
import { AGENT_ROLES, AGENT_STATUSES } from '../../../constants.ts';
import { deploySuite } from '../../../domain/companies/deploy-suite.ts';
import { route, slugTwin } from '../../route.ts';
import { StringEnum } from '../../schemas/common.ts';
import { CompanyParams } from '../../schemas/companies.ts';

export const DeploySuite = Type.Object({
  created: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      role: StringEnum(AGENT_ROLES),
      status: StringEnum(AGENT_STATUSES),
    }),
  ),
  skipped: Type.Array(StringEnum(AGENT_ROLES)),
  dualityResults: Type.Record(Type.String(), Type.Object({ status: Type.String(), errors: Type.Array(Type.String()) })),
});

export default route({
  method: 'POST',
  url: '/api/companies/:id/deploy-suite',
  auth: 'wallet',
  tag: 'companies',
  summary: 'Hire the seven C-suite agents (missing roles only) and run their identity pipeline',
  params: CompanyParams,
  response: DeploySuite,
  load: (deps, { params, signer }) => deploySuite(deps, params.id, signer),
  v1: slugTwin('/companies/:slug/deploy-suite', CompanyParams),
});
